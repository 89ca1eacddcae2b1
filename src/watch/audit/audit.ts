// Audit: one comparison of the replica with tmux (timer.ts decides when): probe tmux's visible
// screen without a pause, compare with ours at exactly the same stream offset, and heal where they
// differ.
import { agree, differences } from "../../observe/emulator/differences.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { ScreenState } from "../../observe/emulator/seed.js";
import type { ControlClient } from "../../tmux/client.js";
import type { AuditResult } from "./timer.js";
import { parseProbe, probeCommands } from "../seed/probe.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";

export interface AuditTarget {
  client: ControlClient;
  paneId: string;
  observer: PaneObserver;
  /** Lines of history the replica keeps: a heal takes that many from tmux. */
  history: number;
  /** Bytes of the pane's output received so far (some may wait for confirmation: see settled). */
  received(): number;
  /** False while a seed or re-seed is running: the screen is being replaced anyway. */
  ready(): boolean;
  /** True when every byte received is in the observer (none waits for tmux's confirmation). */
  settled(): boolean;
  healed(state: ScreenState, rows: number[]): void;
  /** Runs once a heal is in the observer, before its readers are woken (observer.heal's `applied`). */
  applied?(): void;
  /**
   * Whether the pane is still in the client's session. One that left sends us nothing more, so its
   * screen differs from ours by output we lost: that is a move to follow (flagged), never a heal.
   */
  present(): Promise<boolean>;
}

export async function auditPane(target: AuditTarget): Promise<AuditResult> {
  const { client, paneId, observer } = target;
  // A pane being re-taken is about to be replaced anyway.
  if (!target.ready()) return "agree";
  // tmux answers after writing us every byte it had read before the command ran, so if nothing
  // arrived between asking and comparing, its capture shows exactly the bytes we have.
  const before = target.received();
  const quiet = (): boolean => target.received() === before && target.settled() && target.ready();
  if (!target.settled()) return "busy";
  const probe = parseProbe(await client.commands(probeCommands(paneId, 0), { timeoutMs: PROBE_TIMEOUT_MS }));
  if (!quiet()) return "busy";
  const ours = await observer.screenText();
  if (!quiet()) return "busy";
  const found = differences({ ...ours.screen, text: ours.rows }, probe.state);
  if (agree(found)) return "agree";
  if (found.shape && (await resizeUnheard(target, ours.screen))) return "busy";
  if (!(await target.present())) return "busy";
  // A heal rebuilds the screen with the history the replica keeps: ask again with it, still at rest.
  const full = parseProbe(await client.commands(probeCommands(paneId, target.history), { timeoutMs: PROBE_TIMEOUT_MS }));
  // tmux 3.3a+ hides a dead pane's cursor (server-fn.c server_destroy_pane clears MODE_CURSOR): the
  // pane's death, not the program's doing. A heal keeps the cursor as the program left it, so a
  // screen after the program's end is the same whether a heal came or not, and on 3.2a.
  if (full.dead && full.state.modes) full.state.modes.cursorVisible = (await observer.snapshot()).cursorVisible;
  if (!quiet()) return "busy";
  observer.heal(full.state, found.rows, target.applied);
  target.healed(full.state, found.rows);
  return "healed";
}

/**
 * tmux tells of a resize in a notification it writes after the replies of the loop turn it made the
 * resize in, so a probe can show the new size before the replica has heard of it (a heal then, for
 * nothing: tmux 3.4 under load). One more round trip lets that %layout-change arrive: when the
 * replica's size changed meanwhile, the resize asks for its own audit. A size that stays different is
 * a real difference, healed.
 */
async function resizeUnheard(target: AuditTarget, compared: { cols: number; rows: number }): Promise<boolean> {
  await target.client.command(["display-message", "-p", "-t", target.paneId, "#{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS });
  const size = target.observer.size;
  return size.cols !== compared.cols || size.rows !== compared.rows;
}
