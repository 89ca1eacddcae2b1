// Confirm, through the watching client: one short question ("is the pane there, which process, has
// it exited?") whose reply comes after every byte tmux queued for this client before it, so the
// answer covers all output received by then. Used where neither /proc (pane-process.ts) nor the
// quiet client (quiet-client.ts) answers, and to make sure of a dead pane's last output.
import { isPanescopeError } from "../../errors.js";
import type { ControlClient } from "../../tmux/client.js";
import { TmuxFormat } from "../../tmux/format.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";
import type { Confirmer } from "./confirm.js";
import type { PaneLife } from "./quiet-client.js";

const LIFE = new TmuxFormat({ paneId: "pane_id", panePid: "pane_pid", dead: "pane_dead" });

/** Whether a pane still exists, its process, and whether that process exited: one short reply. */
export function lifeCommand(paneId: string): string[] {
  return ["display-message", "-p", "-t", paneId, LIFE.text];
}

/** The reply of lifeCommand; undefined when tmux answered for another pane (`display-message -t %99` in tmux 3.3a falls back). */
export function parseLife(paneId: string, lines: string[]): PaneLife | undefined {
  const f = LIFE.parseOne(lines);
  return f?.paneId === paneId ? { panePid: Number(f.panePid), dead: f.dead === "1" } : undefined;
}

/**
 * Asks through `client` and settles `confirmer` with the answer. A client that ended sends nothing
 * more: what came through it is the process's (`panePid`). A slow reply (a client far behind a
 * flood) proves nothing; any other failure calls `lost` (look for the pane).
 */
export async function askWatchingClient(
  client: Pick<ControlClient, "closed" | "command">,
  paneId: string,
  confirmer: Confirmer,
  panePid: number,
  lost: () => void,
): Promise<void> {
  if (client.closed) {
    confirmer.settle({ panePid, dead: false }, confirmer.received, true);
    return;
  }
  try {
    // The answer covers what arrived before the reply, not what the same chunk brought after it.
    let upTo = 0;
    const reply = await client.command(lifeCommand(paneId), { timeoutMs: PROBE_TIMEOUT_MS, atReply: () => (upTo = confirmer.received) });
    confirmer.settle(parseLife(paneId, reply), upTo, true);
  } catch (error) {
    if (!isPanescopeError(error, "timeout") && !isPanescopeError(error, "aborted")) lost();
  }
}
