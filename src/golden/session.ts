// The I/O edge of golden testing: one program in one pane of a private tmux server (unique -L,
// -f /dev/null), watched through a Hub from its first byte, driven with keys, read as screens.

import { randomBytes } from "node:crypto";
import { PanescopeError } from "../errors.js";
import type { Delta } from "../observe/read/delta.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { expandTabs } from "../tmux/capture.js";
import { TmuxFormat } from "../tmux/format.js";
import type { TmuxServer } from "../tmux/server.js";
import { Hub } from "../watch/hub.js";
import { validateKeyName } from "../tmux/keys.js";
import { describeMatch, frameScreen, MATCHED_ROWS, screenMatches } from "./matching.js";
import { checkSize, discardLaunch, discardWith, endWithOwner, launchPane, type Launched, type PaneSessionOptions } from "./launch.js";
import { SessionRecording } from "./recording.js";
import type { Size, TextMatch } from "./tape.js";

export interface ExitStatus {
  dead: boolean;
  /** The exit status as `sh` reports it (128+N for signal N); undefined while running. */
  code?: number;
}

/** What `capture-pane -p` and `display -p` say about the pane at one moment. */
export interface TmuxView {
  lines: string[];
  cursorX: number;
  cursorY: number;
  alternate: boolean;
}

function sizeText(size: Size): string {
  return `${size.cols}x${size.rows}`;
}

function isQuiet(delta: Delta): boolean {
  return delta.rows.length === 0 && delta.rawBytes === 0 && !delta.missed;
}

export class PaneSession {
  private cursor: string;
  private deathWaiter: { done: Promise<unknown>; stop: AbortController } | undefined;
  private deathListeners = new Set<() => void>();
  private deadFlag = false;
  private closing: Promise<void> | undefined;
  private recording: SessionRecording | undefined;
  /** Where the output the next rawSince() returns begins. */
  private rawMark = "";

  private constructor(
    readonly server: TmuxServer,
    private readonly hub: Hub,
    readonly paneId: string,
    readonly windowId: string,
    private readonly observer: PaneObserver,
    private readonly launched: Launched,
  ) {
    this.cursor = "";
  }

  /** The pane outlives the program (tmux 3.2: launch.ts, holds); elsewhere it dies with it. */
  get holdsPane(): boolean {
    return this.launched.holds;
  }

  /** The -L socket name of this scenario's private server. */
  get socketName(): string {
    return this.server.socketName ?? "";
  }

  /**
   * True once the program exited: the wrapper signalled it, or the pane is dead (where the wrapper
   * ends with the program, 3.3+). Two witnesses: under load on tmux 3.4 the signal's `wait-for`
   * client once ended without its exit ever reaching us (a zombie that a SIGCHLD sent by hand did
   * not reap, its stdout still held by tmux), while the pane read dead at once.
   */
  get dead(): boolean {
    return this.deadFlag || this.observer.closed;
  }

  static async start(options: PaneSessionOptions): Promise<PaneSession> {
    const launched = await launchPane(options);
    const { server, paneId, windowId } = launched;
    let hub: Hub | undefined;
    try {
      // Never idle-evicted: the session reads its observer directly, not through the hub's reads
      // that keep a watch alive, and owns the pane (and the server) for its whole life.
      // The hub's notes (`panescope: healed %0: …`) say which session they are about: many run at once.
      const label = options.label ?? commandTitle(options.command);
      const warn = (message: string): void => void process.stderr.write(`${message} (golden session ${label})\n`);
      hub = new Hub({ server, key: randomBytes(32), idleMs: Infinity, warn });
      const watching = hub;
      discardWith(launched, async () => {
        await watching.close().catch(() => undefined);
        await discardLaunch(launched);
      });
      const observer = await hub.observer(paneId);
      // Its control client is attached now: from here a session never closed dies with this process.
      await endWithOwner(launched);
      const session = new PaneSession(server, hub, paneId, windowId, observer, launched);
      session.cursor = (await observer.read()).cursor;
      session.rawMark = session.cursor;
      // Before the gate opens: the recording has every byte the program prints.
      if (options.record !== undefined) session.recording = new SessionRecording(observer, options.record.title);
      session.watchDeath(launched.died);
      await session.assertSize(options.size);
      // Watched from here on: let the program start.
      await server.run(["wait-for", "-S", launched.gate]);
      return session;
    } catch (error) {
      await hub?.close().catch(() => undefined);
      await discardLaunch(launched);
      throw error;
    }
  }

  /** A background `tmux wait-for` that returns when the wrapper signals the exit: no polling. */
  private watchDeath(channel: string): void {
    const stop = new AbortController();
    // No time limit: it waits for the program to end.
    const done = this.server.run(["wait-for", channel], { signal: stop.signal, timeoutMs: Infinity }).then(
      () => true,
      () => false, // aborted by close(), or the server went away: not a death we can vouch for
    );
    this.deathWaiter = { done, stop };
    void done.then((signalled) => {
      if (!signalled || this.closing !== undefined) return;
      this.deadFlag = true;
      for (const wake of this.deathListeners) wake();
      this.deathListeners.clear();
    });
  }

  /** Fails unless tmux's window and pane and the emulator all have exactly `size`. */
  async assertSize(size: Size): Promise<void> {
    const f = await this.server.display(this.paneId, new TmuxFormat({ windowCols: "window_width", windowRows: "window_height", paneCols: "pane_width", paneRows: "pane_height" }));
    const windowSize = f && `${f.windowCols}x${f.windowRows}`;
    const paneSize = f && `${f.paneCols}x${f.paneRows}`;
    const want = sizeText(size);
    if (windowSize !== want || paneSize !== want) {
      throw new PanescopeError(
        "golden",
        `asked for a ${want} terminal but tmux gave the window ${windowSize ?? "?"} and the pane ${paneSize ?? "?"}: ` +
          "a sized client or another pane may be constraining it; run each scenario in its own server with one pane",
      );
    }
    const deadline = Date.now() + 5000;
    // The emulator follows %layout-change; wait (event-driven) until it has the new size.
    while (sizeText(this.observer.size) !== want) {
      if (Date.now() > deadline) throw new PanescopeError("golden", `the emulator is ${sizeText(this.observer.size)} after tmux resized the pane to ${want}`);
      this.cursor = (await this.observer.waitForChange(this.cursor, deadline - Date.now())).cursor;
    }
  }

  /** Presses tmux keys (validated: Enter, C-c, Up, a …). */
  async sendKeys(names: string[]): Promise<void> {
    const keys = names.map((name) => validateKeyName(name));
    if (keys.length === 0) return;
    this.requireAlive("press keys");
    await this.server.run(["send-keys", "-t", this.paneId, "--", ...keys]);
  }

  /** Types text literally (`send-keys -l`): no key names, "\n" is a newline. */
  async typeText(text: string): Promise<void> {
    if (text === "") return;
    this.requireAlive("type text");
    await this.server.run(["send-keys", "-l", "-t", this.paneId, "--", text]);
  }

  /** Waits until the screen shows `match`; fails at once if the program exits first. */
  async waitFor(match: TextMatch, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lines = await this.displayedLines();
      if (screenMatches(lines, match)) return;
      if (this.dead) {
        await this.waitQuiet(50, 2000).catch(() => undefined); // bytes in transit at exit
        const final = await this.displayedLines();
        if (screenMatches(final, match)) return;
        throw await this.deathError(`before ${describeMatch(match)} appeared`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new PanescopeError("timeout", `${describeMatch(match)} did not appear within ${timeoutMs} ms (${MATCHED_ROWS}); the screen:\n${frameScreen(lines, this.observer.size.cols)}`);
      }
      await this.nextChange(left);
    }
  }

  /** Waits until no output arrived for `ms` (the program drew its frame), at most `timeoutMs`. */
  async waitQuiet(ms: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const delta = await this.observer.waitForChange(this.cursor, ms);
      this.cursor = delta.cursor;
      if (isQuiet(delta)) return;
      if (Date.now() > deadline) {
        // Masks do not help here: they apply to the compared text, and this waits on output.
        throw new PanescopeError(
          "timeout",
          `the program never went ${ms} ms without output within ${timeoutMs} ms (a spinner or a clock redrawing?): ` +
            `snapshot after it stops (wait for what it shows then), or settle (or quiet) for less than the time between its redraws and mask the text it changes; the screen:\n${await this.framed()}`,
        );
      }
    }
  }

  /** The rows as `waitFor` matches them: as displayed, the cursor's row keeping its blanks up to the cursor (MCP wait_for's rows). */
  async displayedLines(): Promise<string[]> {
    return (await this.observer.displayedScreen()).rows;
  }

  /** The screen as the emulator rendered it after every byte received so far. */
  snapshot(): Promise<ScreenSnapshot> {
    return this.observer.snapshot();
  }

  /** The program's output (escapes removed) since the last call, or since it started. */
  async rawSince(): Promise<string> {
    const delta = await this.observer.read(this.rawMark, { maxLines: 0 });
    this.rawMark = delta.cursor;
    return delta.raw;
  }

  /** The recording so far (asciicast v2 text); undefined unless started with `record`. */
  cast(): string | undefined {
    return this.recording?.text();
  }

  /** tmux's own rendering of the pane (`capture-pane -p`) and its cursor, in one tmux call. */
  async captureTmux(): Promise<TmuxView> {
    // The cursor first: numbers only, so its record is one line and the capture every line after it.
    const format = new TmuxFormat({ cursorX: "cursor_x", cursorY: "cursor_y", alternate: "alternate_on" });
    const out = await this.server.runMany([
      ["display-message", "-p", "-t", this.paneId, format.text],
      ["capture-pane", "-p", "-t", this.paneId],
    ]);
    const state = format.parseOne(out.slice(0, 1));
    // tmux 3.6+ keeps a tab as one "\t" in a capture; the screen shows the blanks it covers.
    const lines = out.slice(1).map((line) => expandTabs(line));
    return { lines, cursorX: Number(state?.cursorX), cursorY: Number(state?.cursorY), alternate: state?.alternate === "1" };
  }

  /** Resizes the window (and so the pane) and asserts the new size everywhere. */
  async resize(size: Size): Promise<void> {
    checkSize(size);
    await this.server.run(["resize-window", "-t", this.windowId, "-x", String(size.cols), "-y", String(size.rows)]);
    await this.assertSize(size);
  }

  /** Whether the program exited, and its exit status as a shell reports it (128+N: signal N). */
  async exitStatus(): Promise<ExitStatus> {
    const f = await this.server.display(this.paneId, new TmuxFormat({ dead: "pane_dead", code: "@panescope_status" }));
    const code = f?.code;
    return { dead: f?.dead === "1" || this.dead, ...(code === undefined || code === "" ? {} : { code: Number(code) }) };
  }

  /** Waits (on the wrapper's signal or the pane's death) for the program to exit; returns its status. */
  async waitExit(timeoutMs: number): Promise<ExitStatus> {
    const deadline = Date.now() + timeoutMs;
    while (!this.dead) {
      const left = deadline - Date.now();
      if (left <= 0) throw new PanescopeError("timeout", `the program did not exit within ${timeoutMs} ms; the screen:\n${await this.framed()}`);
      await this.nextChange(left);
    }
    // A pane that dies with its program is closed by the watch once its last output is in, from
    // tmux's screen where tmux dropped it (launch.ts, holds): until then the screen can be a flood's
    // middle. 50 ms of quiet was not enough (`seq 1 200000` then exit: an old screen, 4 runs in 4).
    while (!this.launched.holds && !this.observer.closed && Date.now() < deadline) await this.nextChange(deadline - Date.now());
    await this.waitQuiet(50, 2000).catch(() => undefined);
    return this.exitStatus();
  }

  /** Kills the server, removes its socket file and the temporary HOME. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.recording?.stop();
      await this.hub.close().catch(() => undefined);
      await this.server.run(["kill-server"]).catch(() => undefined);
      this.deathWaiter?.stop.abort();
      await this.deathWaiter?.done;
      await discardLaunch(this.launched);
    })();
    return this.closing;
  }

  /** The error for a program that exited while a step still needed it: status and last screen. */
  async deathError(when: string): Promise<PanescopeError> {
    const status = await this.exitStatus();
    const code = status.code ?? "unknown";
    const how = typeof code === "number" && code > 128 ? `exited with status ${code} (killed by signal ${code - 128}?)` : `exited with status ${code}`;
    return new PanescopeError("golden", `the program ${how} ${when}; its last screen:\n${await this.framed()}`);
  }

  private requireAlive(what: string): void {
    if (this.dead) throw new PanescopeError("golden", `cannot ${what}: the program has exited (add "expect exit N" if that is intended)`);
  }

  /** The screen now, framed for an error message. */
  private async framed(): Promise<string> {
    const screen = await this.observer.snapshot();
    return frameScreen(screen.lines, screen.cols);
  }

  /** Resolves on the next screen change, on the program's death, or after `ms`. */
  private async nextChange(ms: number): Promise<void> {
    const abort = new AbortController();
    const wake = (): void => abort.abort();
    this.deathListeners.add(wake);
    try {
      this.cursor = (await this.observer.waitForChange(this.cursor, ms, abort.signal)).cursor;
    } finally {
      this.deathListeners.delete(wake);
    }
  }
}

/**
 * Starts a program in a private tmux server, watched from its first byte. Always `close()` it: one
 * never closed still ends with this process (endWithOwner), and the watchdog removes its files.
 */
export function startPaneSession(options: PaneSessionOptions): Promise<PaneSession> {
  // Under PANESCOPE_REPORT a failing golden's report shows the session's recording.
  const report = process.env.PANESCOPE_REPORT ?? "";
  const title = commandTitle(options.command);
  return PaneSession.start(options.record === undefined && report !== "" ? { ...options, record: { title } } : options);
}

function commandTitle(command: PaneSessionOptions["command"]): string {
  return typeof command === "string" ? command : JSON.stringify(command);
}
