// Fall back: the watch used when control mode is unavailable (attach refused, or `%exit` right
// after attach): a pane view kept by polling `capture-pane` through one-shot tmux commands.
// Rendered rows stay right (each poll repaints the emulator from tmux's capture); raw output is not
// seen at all, so every answer says `streaming: false`, and the switch to polling is a
// `not-streaming` break.
import { randomBytes } from "node:crypto";
import { isPanescopeError, PanescopeError } from "../../errors.js";
import type { CursorFields } from "../../observe/cursor/codec.js";
import { isEmpty, type Delta, type PaneExit, type ReadLimits } from "../../observe/read/delta.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import type { ScreenState } from "../../observe/emulator/seed.js";
import type { TmuxServer } from "../../tmux/server.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";
import type { CheckResult } from "../confirm/pane-life.js";
import { observerFor, type After, type ObserverSeams } from "../seed/observer.js";
import { parseProbe, probeCommands, type PaneProbe } from "../seed/probe.js";
import type { WatchSettings } from "../settings.js";
import { ANSWERS, type Verdict, type Watch } from "../watch.js";


/** Tries control mode again for a polled pane: the streaming watch that continues after `after`, or undefined. */
export type RetryStreaming = (after: After) => Promise<Watch | undefined>;

/** The probe of seed/probe.ts through ONE one-shot tmux invocation (tmux runs a `;` list atomically). */
export async function pollProbe(server: TmuxServer, paneId: string, history: number): Promise<PaneProbe> {
  // Replies are split on a random line no pane can predict, so captured text cannot forge a split.
  const nonce = `panescope-${randomBytes(8).toString("hex")}`;
  const commands = probeCommands(paneId, history).flatMap((command, i) => (i === 0 ? [command] : [["display-message", "-p", nonce], command]));
  let lines: string[];
  try {
    lines = await server.runMany(commands, { timeoutMs: PROBE_TIMEOUT_MS });
  } catch (error) {
    if (isPanescopeError(error, "command-failed")) {
      throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`, { cause: error });
    }
    throw error;
  }
  const replies: string[][] = [[]];
  for (const line of lines) {
    if (line === nonce) replies.push([]);
    else replies[replies.length - 1]?.push(line);
  }
  if (replies.length !== 3) throw new PanescopeError("protocol", `tmux gave ${replies.length} of 3 probe replies for ${paneId}`);
  return parseProbe(replies);
}

/** Escape bytes before a repaint: leave the alternate screen, reset attributes and scroll region, clear. */
const REPAINT = "\x1b[?1049l\x1b[0m\x1b[r\x1b[H\x1b[2J";

export class PollWatch implements Watch {
  lastUsed = Date.now();
  readonly streaming = false;
  readonly auditStats = undefined;
  /** When control mode was last tried for this pane (tried again after settings.retryStreamingMs). */
  private since = Date.now();
  respawned = false;
  private history: number;

  private constructor(
    private readonly settings: WatchSettings,
    readonly paneId: string,
    readonly observer: PaneObserver,
    probe: PaneProbe,
    private readonly retry: RetryStreaming | undefined,
  ) {
    this.history = historyOf(probe);
  }

  /** Polls `paneId`; `retry` (the starter's) tries the stream again now and then. */
  static async start(settings: WatchSettings, paneId: string, seams: ObserverSeams, retry?: RetryStreaming): Promise<PollWatch> {
    const probe = await pollProbe(settings.server, paneId, settings.scrollback);
    const observer = observerFor(paneId, probe, settings, seams);
    observer.setStreaming(false);
    observer.seed(probe.state);
    if (probe.dead) observer.markClosed(probe.exit);
    return new PollWatch(settings, paneId, observer, probe, retry);
  }

  get inUse(): boolean {
    return this.observer.waiting > 0 || this.observer.tapped;
  }

  /** Hands over to a stream once control mode works again; else polls once (a new process: replace). */
  async revalidate(): Promise<Verdict> {
    if (this.retry && Date.now() - this.since >= this.settings.retryStreamingMs && !this.observer.closed) {
      this.since = Date.now();
      const { offset, sequence: seq } = this.observer;
      const next = await this.retry({ offset, seq, reason: "not-streaming" });
      if (next) return { kind: "handover", next };
    }
    return (await this.check()) === "respawned" ? { kind: "replace", reason: "respawned" } : ANSWERS;
  }

  /** Polls tmux once: repaints the screen from its capture, and notes death or a new process. */
  async check(): Promise<CheckResult> {
    if (this.respawned) return "respawned";
    let probe: PaneProbe;
    try {
      probe = await pollProbe(this.settings.server, this.paneId, this.settings.scrollback);
    } catch {
      this.observer.markClosed(); // the pane (or the server) is gone: the last screen stays readable
      return "closed";
    }
    if (probe.panePid !== this.observer.identity.panePid) {
      this.respawned = true;
      this.observer.addBreak("respawned", 0);
      return "respawned";
    }
    this.repaint(probe);
    if (probe.dead) this.observer.markClosed(probe.exit);
    return this.observer.closed ? "closed" : "alive";
  }

  /** A poll: the screen as tmux shows it now (raw output is not seen when polling). */
  async caughtUp(): Promise<void> {
    await this.check();
  }

  /** Every poll is tmux's own screen: no replica to check. */
  atRest(): Promise<void> {
    return Promise.resolve();
  }

  /** Like PaneObserver.waitForChange, polling tmux every intervalMs while it waits. */
  async waitForChange(cursor: string | CursorFields | undefined, waitMs: number, signal?: AbortSignal, limits?: ReadLimits): Promise<Delta> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const state = await this.check();
      const slice = Math.max(0, Math.min(this.settings.pollIntervalMs, deadline - Date.now()));
      const delta = await this.observer.waitForChange(cursor, state === "alive" ? slice : 0, signal, limits);
      if (cursor === undefined || !isEmpty(delta) || signal?.aborted === true || Date.now() >= deadline) return delta;
    }
  }

  markClosed(exit?: PaneExit): void {
    this.observer.markClosed(exit);
  }

  dispose(): void {
    this.observer.dispose();
  }

  /**
   * Repaints from the top, starting with the lines that scrolled into history since the last poll
   * (history_size grew by k), so they scroll into the emulator's history and every line keeps its
   * absolute number. Known limit: once tmux's history is full, history_size stops growing and a
   * scroll shows as changed rows at the same line numbers.
   */
  private repaint(probe: PaneProbe): void {
    const { state } = probe;
    const history = historyOf(probe);
    // At most the history lines the capture holds (the replica keeps no more).
    const scrolled = Math.max(0, Math.min(history - this.history, state.lines.length - state.rows));
    this.history = history;
    this.observer.resize(state.cols, state.rows);
    const visible = state.lines.slice(Math.max(0, state.lines.length - state.rows - scrolled));
    const repaint: ScreenState = { ...state, lines: [REPAINT + (visible[0] ?? ""), ...visible.slice(1)] };
    this.observer.seed(repaint);
  }
}

/** Lines of the normal screen above its visible rows. */
function historyOf(probe: PaneProbe): number {
  return probe.historySize;
}
