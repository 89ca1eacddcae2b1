// The pane observer: one pane's byte stream kept twice — a byte ring (raw) and a headless screen
// (rows) — answering "what changed since this cursor" in both forms. Knows nothing of tmux or MCP.
import { PanescopeError } from "../errors.js";
import { cursorIdentity, decodeCursor, encodeCursor, type CursorFields } from "./cursor.js";
import type { Delta, MissedReason, PaneExit, ReadLimits, Row } from "./delta.js";
import { RawStream } from "./raw.js";
import { RowTracker } from "./rows.js";
import { beyondCap, emulatedSize, type Geometry } from "./geometry.js";
import { Screen, DEFAULT_SCROLLBACK } from "./screen.js";
import { seedBytes, type PaneState } from "./seed.js";
import type { StripState } from "./strip.js";
import { afterRaw, applyLimits } from "./limits.js";
import { BreakLog } from "./breaks.js";
import { HealLog } from "./heals.js";
import { Wakeup } from "./wakeup.js";
import type { WidthPolicy } from "./width-policy.js";
import { FrameLog, type Frame } from "./frames.js";
import { patchScreen } from "./screen-patch.js";
import { Taps, type PaneTap, type ScreenCause } from "./tap.js";

/** What a cursor binds besides the stream position. */
export interface PaneIdentity {
  paneId: string;
  panePid: number;
  serverPid: number;
  serverStart: number;
  /** The server's #{socket_path}: a cursor of another server is an error (cursor.ts). */
  serverSocket?: string;
  /** This panescope process (see instance.ts). */
  instance: Uint8Array;
}

export interface PaneObserverOptions {
  identity: PaneIdentity;
  cols: number;
  rows: number;
  key: Uint8Array;
  scrollback?: number;
  ringBytes?: number;
  /** First byte offset and render sequence: a re-created observer continues after its predecessor. */
  startOffset?: number;
  startSeq?: number;
  /** Why there is a predecessor whose cursors this observer cannot continue (e.g. "evicted"). */
  predecessor?: MissedReason;
  /**
   * The screen is stale until the caller takes tmux's screen again: the emulator fell so far behind
   * the stream that its queue was dropped (reason "overflow": reseed), or it failed on the output
   * (xterm threw; `error` says how; no reason: resync, nothing was lost). Raw output is unaffected.
   */
  onStale?: (reason: MissedReason | undefined, error?: unknown) => void;
  /** Character widths of the tmux in use (default: xterm's Unicode 11). */
  widths?: WidthPolicy;
}

/**
 * How long a read spends catching its pane's emulator up (parsing at once, ahead of other panes)
 * before it answers with what is applied: about 0.15–0.5 MB of output on a 2-core VM.
 */
const READ_CATCH_UP_MS = 10;
/** Below this backlog a read always catches up whole (≈10 ms of parsing at most): answers stay exact. */
const FAR_BEHIND_BYTES = 128 * 1024;
/**
 * Most bytes queued for the emulator. xterm parses random bytes at ≈6.5 MB/s (32 KiB slices, 2-core
 * VM), slower than tmux can deliver them; without a bound the screen fell minutes behind. 4 MiB is
 * under a second of the slowest parsing; beyond it the queue is dropped and tmux's screen taken.
 */
export const MAX_SCREEN_BACKLOG = 4 * 1024 * 1024;

export class PaneObserver {
  readonly identity: PaneIdentity;
  /** What this observer's cursors bind of the identity (a hash: computed once, not per answer). */
  private readonly issuer: ReturnType<typeof cursorIdentity>;
  private readonly key: Uint8Array;
  private readonly raw: RawStream;
  private readonly scrollback: number;
  private readonly widths: WidthPolicy | undefined;
  private screen: Screen;
  /** The pane's size as tmux has it; the screen is at most the cap of geometry.ts. */
  private paneSize: Geometry = { cols: 0, rows: 0 };
  private tracker = new RowTracker();
  /** Offset of the last byte the screen has applied, and the sequence of the last row change. */
  private applied: number;
  private seq: number;
  private trackedTop = 0;
  /** The screen and its version at the last refresh: a read of an unchanged screen diffs nothing. */
  private refreshed: { screen: Screen; version: number } | undefined;
  private readonly breaks = new BreakLog();
  private readonly heals = new HealLog();
  /** The screens readers were shown, by sequence: the text view diffs against them. */
  private readonly frames = new FrameLog();
  private readonly predecessor: MissedReason | undefined;
  private readonly wakeup = new Wakeup();
  private closedFlag = false;
  /** How the program ended, when tmux said (remain-on-exit panes keep it). */
  private exit: PaneExit | undefined;
  private streamingFlag = true;
  /** Set when the emulator's queue was dropped: the screen waits for a reseed, raw goes on. */
  private stale = false;
  private readonly onStale: ((reason: MissedReason | undefined, error?: unknown) => void) | undefined;
  private readonly taps = new Taps();

  constructor(options: PaneObserverOptions) {
    this.identity = options.identity;
    this.issuer = cursorIdentity(options.identity);
    this.key = options.key;
    this.raw = new RawStream(options.ringBytes, options.startOffset ?? 0);
    this.scrollback = options.scrollback ?? DEFAULT_SCROLLBACK;
    this.applied = this.raw.base;
    this.seq = options.startSeq ?? 0;
    this.predecessor = options.predecessor;
    this.onStale = options.onStale;
    this.widths = options.widths;
    this.screen = this.newScreen(options.cols, options.rows);
    this.refresh();
  }

  get paneId(): string {
    return this.identity.paneId;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Bytes received so far (absolute offset of the stream's end). */
  get offset(): number {
    return this.raw.end;
  }

  /** The render sequence: every cursor this observer issued carries at most this. */
  get sequence(): number {
    return this.seq;
  }

  /** Readers waiting for news now (an observer with waiters is not retired). */
  get waiting(): number {
    return this.wakeup.size;
  }

  /** How the pane's program ended, once closed and known. */
  get exitInfo(): PaneExit | undefined {
    return this.closedFlag ? this.exit : undefined;
  }

  /** Bytes received and not yet applied by the emulator (bounded by MAX_SCREEN_BACKLOG). */
  get pending(): number {
    return this.screen.backlog;
  }

  get size(): { cols: number; rows: number } {
    return { cols: this.screen.cols, rows: this.screen.rows };
  }

  /**
   * Listens to the stream (recordings); returns the way to stop. The tap starts with the screen
   * all output so far drew, parsed now, so no byte is both in that screen and in a later event.
   */
  tap(tap: PaneTap): () => void {
    const screen = this.screen;
    screen.hurry();
    // A 4 MiB backlog is at most 128 slices; the bound only matters if called while parsing.
    for (let slices = 0; slices < 1024 && screen.pump(); slices++);
    tap.start?.(screen.snapshot(), screen.alternate ? screen.snapshot("normal") : undefined);
    return this.taps.add(tap);
  }

  /** The character widths of the tmux in use, when known (screenshots lay cells out with them). */
  get widthPolicy(): WidthPolicy | undefined {
    return this.widths;
  }

  /** Puts tmux's view of the pane into the screen before live bytes (race-free recipe in design.md). */
  seed(state: PaneState, cause: ScreenCause = "seed"): void {
    this.taps.emit((t) => t.screen?.(state, cause));
    this.screen.write(seedBytes(state), () => {
      // The seeded history is the past, not news; the seeded screen is what a reader must see.
      this.tracker.rebase(this.screen.top);
      this.refresh();
    });
  }

  /**
   * Output was lost (tmux paused the pane, or the stream broke): start a fresh screen from tmux's
   * view, keep line numbers increasing, and flag the gap for every reader whose cursor precedes it.
   */
  reseed(state: PaneState, reason: MissedReason): void {
    this.replaceScreen(state, reason);
    this.addBreak(reason, 0);
  }

  /**
   * Nothing was lost but the screen may differ from tmux's (after a resize tmux keeps the cursor
   * row while xterm's reflow keeps the top row: golden/streams/shell-resize): take tmux's screen.
   * Every row is reported again, with new line numbers.
   */
  resync(state: PaneState): void {
    this.replaceScreen(state, "resync");
  }

  /**
   * The replica audit found our screen differs from tmux's with nothing lost (an emulator that draws
   * some text differently, a mode the seed could not know): take tmux's screen, keeping every line
   * number, so only the rows that differ are news, and log them as healed for every reader whose
   * cursor precedes this. Call at rest: every byte received must be in `state`.
   */
  heal(state: PaneState, rows: readonly number[]): void {
    const top = this.screen.top;
    const history = Math.max(0, state.lines.length - state.rows);
    const lineBase = top - history;
    this.screen.dispose();
    this.screen = this.newScreen(state.cols, state.rows, lineBase);
    this.applied = this.offset;
    this.taps.emit((t) => t.screen?.(state, "heal"));
    this.screen.write(seedBytes(state), () => {
      // The tracker keeps what readers were shown at the same line numbers: the diff finds the fix.
      this.refresh();
      if (rows.length > 0) this.heals.add(this.seq, rows.map((y) => top + y));
      this.notify();
    });
  }

  /** Heals since this observer started (list_panes, logs). */
  get healCount(): number {
    return this.heals.count;
  }

  /** Bytes whose effect on the screen arrives with the next resync's capture: kept as raw only. */
  appendRaw(bytes: Uint8Array): void {
    this.raw.append(bytes);
  }

  private replaceScreen(state: PaneState, cause: ScreenCause): void {
    this.stale = false;
    const lineBase = this.screen.top + this.screen.rows;
    this.screen.dispose();
    this.screen = this.newScreen(state.cols, state.rows, lineBase);
    this.tracker = new RowTracker(lineBase);
    this.trackedTop = lineBase;
    // The capture holds the effect of every byte received so far (writes queued on the old screen too).
    this.applied = this.offset;
    this.seed(state, cause);
  }

  /** The pane is larger than panescope emulates: answers say so (screen.capped). */
  get capped(): boolean {
    return beyondCap(this.paneSize) !== undefined;
  }

  private newScreen(cols: number, rows: number, lineBase?: number): Screen {
    this.paneSize = { cols, rows };
    const screen: Screen = new Screen({
      ...emulatedSize(this.paneSize),
      scrollback: this.scrollback,
      ...(lineBase === undefined ? {} : { lineBase }),
      widths: this.widths,
      onFailure: (error) => this.screenFailed(screen, error),
      // Mid-write, before lines a reader has not seen could leave memory (see ingest).
      onScroll: (top) => {
        if (screen === this.screen && this.unseenMayLeave(top)) this.refresh();
      },
    });
    return screen;
  }

  /** Half the scrollback went by since rows were last diffed: diff now, before unseen lines leave memory. */
  private unseenMayLeave(top: number): boolean {
    return top - this.trackedTop > this.scrollback / 2;
  }

  /** xterm failed on this output: tmux's screen replaces ours (resync); until then rows stand still. */
  private screenFailed(screen: Screen, error: unknown): void {
    if (screen !== this.screen || this.stale || !this.onStale) return;
    this.stale = true;
    screen.dropQueued();
    this.onStale(undefined, error);
  }

  /** Live bytes from the pane. */
  ingest(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.raw.append(bytes);
    this.taps.emit((t) => t.output?.(bytes));
    if (this.stale) return;
    if (this.screen.backlog + bytes.length > MAX_SCREEN_BACKLOG && this.onStale) {
      this.stale = true;
      this.screen.dropQueued();
      this.onStale("overflow");
      return;
    }
    const end = this.offset;
    this.screen.write(bytes, () => {
      this.applied = Math.max(this.applied, end);
      // Rows are diffed for a waiting reader once the emulator caught up, and before unread lines
      // could be trimmed away; otherwise the next read diffs them (settle). Diffing after every
      // chunk of a flood nobody waits on cost ≈9 ms of CPU per MB (a third of xterm's parsing).
      const waited = this.wakeup.size > 0;
      if ((waited && !this.screen.busy) || this.unseenMayLeave(this.screen.top)) this.refresh();
      else if (waited) this.notify();
    }, this.wakeup.size > 0);
  }

  resize(cols: number, rows: number): void {
    this.taps.emit((t) => t.resize?.(cols, rows));
    // In stream order: xterm parses writes asynchronously, so bytes ingested before this resize must
    // be applied (at the old size) first. Found by replaying golden/streams/shell-resize.ctl.
    const screen = this.screen;
    screen.write("", () => {
      if (screen !== this.screen) return;
      this.paneSize = { cols, rows };
      const emulated = emulatedSize(this.paneSize);
      if (emulated.cols === screen.cols && emulated.rows === screen.rows) return;
      screen.resize(emulated.cols, emulated.rows);
      this.tracker.invalidate();
      this.refresh();
    });
  }

  /** The pane's process exited or the pane is gone: the final screen stays readable. */
  markClosed(exit?: PaneExit): void {
    if (exit && (exit.status !== undefined || exit.signal !== undefined)) this.exit ??= exit;
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.taps.emit((t) => t.closed?.(this.exit));
    this.notify();
  }

  /** Answers now come from polling, not the stream (control mode unavailable). */
  setStreaming(streaming: boolean): void {
    if (this.streamingFlag === streaming) return;
    this.streamingFlag = streaming;
    if (!streaming) this.addBreak("not-streaming", 0);
    this.notify();
  }

  /** Records a gap the reader cannot see (e.g. output tmux dropped). */
  addBreak(reason: MissedReason, bytes: number): void {
    this.seq++;
    this.breaks.add(this.seq, reason, bytes);
    this.taps.emit((t) => t.gap?.(reason, bytes));
    this.notify();
  }

  /** Current screen as text rows (and optionally history lines above it). */
  async screenText(history = 0): Promise<{ history: string[]; rows: string[]; screen: Delta["screen"] }> {
    await this.settle();
    return { history: this.screen.historyRows(history), rows: this.screen.visibleRows(), screen: this.geometry() };
  }

  /** The visible rows as displayed (the cursor's row keeps its blanks up to the cursor), for matching. */
  async displayedScreen(): Promise<{ rows: string[]; screen: Delta["screen"] }> {
    await this.settle();
    return { rows: this.screen.displayedRows(), screen: this.geometry() };
  }

  async screenAnsi(): Promise<string[]> {
    await this.settle();
    return this.screen.visibleRowsAnsi();
  }

  async snapshot(): Promise<ReturnType<Screen["snapshot"]>> {
    await this.settle();
    return this.screen.snapshot();
  }

  /** Decodes a cursor and checks it is this pane's; throws typed errors for caller mistakes. */
  decode(cursor: string): CursorFields {
    const fields = decodeCursor(cursor, this.key);
    if (`%${fields.pane}` !== this.paneId) {
      throw new PanescopeError(
        "cursor-other-pane",
        `cursor belongs to pane %${fields.pane}, not ${this.paneId}: pass that pane's id, or omit cursor to start watching ${this.paneId}`,
      );
    }
    return fields;
  }

  /** What changed since `cursor` (none: the visible screen, starting a watch). */
  async read(cursor?: string, limits: ReadLimits = {}): Promise<Delta> {
    const fields = cursor === undefined ? undefined : this.decode(cursor);
    await this.settle(READ_CATCH_UP_MS);
    return this.answer(fields, limits);
  }

  /**
   * Like read, but when nothing is new, waits up to `waitMs` for output to be applied, for the
   * pane to close, or for the signal to abort. Event-driven: woken by the screen, never polled.
   */
  async waitForChange(cursor: string | undefined, waitMs: number, signal?: AbortSignal, limits: ReadLimits = {}): Promise<Delta> {
    const fields = cursor === undefined ? undefined : this.decode(cursor);
    await this.settle(READ_CATCH_UP_MS);
    let delta = this.answer(fields, limits);
    const deadline = Date.now() + waitMs;
    while (fields && isEmpty(delta) && !signal?.aborted && Date.now() < deadline) {
      // Output queued since the answer above is parsed on the next turn, not after a delay.
      this.screen.hurry();
      await this.wakeup.next(deadline - Date.now(), signal);
      const behind = this.settle(READ_CATCH_UP_MS);
      if (behind) await behind;
      delta = this.answer(fields, limits);
    }
    return delta;
  }

  dispose(): void {
    this.screen.dispose();
    this.markClosed();
  }

  /**
   * Brings the screen up to every byte received so far: a reader's pane is parsed at once, ahead
   * of its turn. Far behind (a flood) and with `limitMs` (reads), parsing stops after that long and
   * the read answers with what is applied (the cursor's offset says so; the rest comes with the next read). Either way the
   * answer is consistent: between parse slices the screen holds exactly the bytes up to `applied`.
   * Synchronous (undefined) unless it must wait for turns: a woken reader answers without a hop.
   */
  private settle(limitMs?: number): Promise<void> | undefined {
    // A closed pane sends nothing more: its answer (which says closed) holds every byte it sent.
    if (this.closedFlag) limitMs = undefined;
    const screen = this.screen;
    if (screen.busy) {
      screen.hurry(); // nothing queued may wait for more now
      const exact = screen.backlog < FAR_BEHIND_BYTES;
      const until = performance.now() + (limitMs ?? READ_CATCH_UP_MS);
      while (screen.pump() && (exact || performance.now() < until));
      // Far behind and told to wait for all of it: the rest is parsed in turns, I/O in between.
      if (limitMs === undefined && screen.busy) return screen.flush().then(() => this.refresh());
    }
    if (this.refreshed?.screen !== screen || this.refreshed.version !== screen.version) this.refresh();
    return undefined;
  }

  /** Diffs the screen against what readers last saw; news (and only news) wakes waiters. */
  private refresh(): void {
    this.refreshed = { screen: this.screen, version: this.screen.version };
    const changed = this.tracker.update(this.seq + 1, this.screen);
    this.trackedTop = this.screen.top;
    if (!changed) return;
    this.seq++;
    this.frames.record(this.seq, this.frame());
    this.notify();
  }

  private notify(): void {
    this.wakeup.notify();
  }

  private geometry(): Delta["screen"] {
    const capped = beyondCap(this.paneSize);
    return {
      ...(capped === undefined ? {} : { capped }),
      cols: this.screen.cols,
      rows: this.screen.rows,
      top: this.screen.top,
      cursorX: this.screen.cursorX,
      cursorY: this.screen.cursorY,
      alternate: this.screen.alternate,
    };
  }

  private frame(): Frame {
    return { rows: this.tracker.visible, cols: this.screen.cols, alternate: this.screen.alternate };
  }

  private cursorFor(state: StripState): string {
    const fields: CursorFields = {
      ...this.issuer,
      pane: Number(this.paneId.slice(1)),
      panePid: this.identity.panePid,
      offset: this.applied,
      seq: this.seq,
      strip: state,
    };
    return encodeCursor(fields, this.key);
  }

  /** Why a genuine cursor cannot be continued by this observer, if it cannot. */
  private discontinuity(fields: CursorFields): MissedReason | undefined {
    const id = this.identity;
    const issuer = this.issuer;
    if (!sameBytes(fields.instance, issuer.instance)) return "restarted";
    if (fields.server !== issuer.server) return "server-restarted";
    if (fields.panePid !== id.panePid) return "respawned";
    if (fields.offset < this.raw.base || fields.offset > this.applied || fields.seq > this.seq) {
      return this.predecessor ?? "evicted";
    }
    return undefined;
  }

  private answer(fields: CursorFields | undefined, limits: ReadLimits): Delta {
    const reason = fields ? this.discontinuity(fields) : undefined;
    if (!fields || reason) return this.firstAnswer(limits, reason);

    const gaps = this.breaks.since(fields.seq);
    let missedBytes = gaps.bytes;
    let why: MissedReason | undefined = gaps.reason;
    const stripped = this.raw.since(fields.offset, fields.strip, this.applied);
    if (stripped.missed > 0) {
      why ??= "overflow";
      missedBytes += stripped.missed;
    }
    const changes = this.tracker.changedSince(fields.seq, this.screen);
    if (changes.lostLines > 0) why ??= "overflow";

    const limited = applyLimits(changes.rows, stripped.text, limits);
    const healed = this.heals.since(fields.seq);
    const top = this.screen.top;
    const history = changes.rows.flatMap((row) => (row.line < top ? [{ row: row.line - top, text: row.text }] : []));
    return {
      paneId: this.paneId,
      cursor: this.cursorFor(stripped.state),
      first: false,
      ...(healed ? { healed } : {}),
      rows: limited.rows,
      screen: this.geometry(),
      raw: limited.raw,
      rawBytes: stripped.bytes,
      missed: why !== undefined,
      missedBytes,
      ...(why ? { reason: why } : {}),
      closed: this.closedFlag,
      ...(this.closedFlag && this.exit ? { exit: this.exit } : {}),
      streaming: this.streamingFlag,
      truncated: limited.truncated,
      patch: patchScreen(this.frames.at(fields.seq), this.frame(), history, afterRaw(limits, limited.raw), limited.raw),
    };
  }

  /** The visible screen, down to the last non-blank row or the cursor row. */
  private firstAnswer(limits: ReadLimits, reason?: MissedReason): Delta {
    const geometry = this.geometry();
    const texts = this.screen.visibleRows();
    let last = geometry.cursorY;
    for (let y = texts.length - 1; y > last; y--) {
      if (texts[y] !== "") {
        last = y;
        break;
      }
    }
    const rows: Row[] = texts.slice(0, last + 1).map((text, y) => ({ line: geometry.top + y, text }));
    const limited = applyLimits(rows, "", limits);
    return {
      paneId: this.paneId,
      cursor: this.cursorFor(this.raw.stateAt(this.applied)),
      first: true,
      rows: limited.rows,
      screen: geometry,
      raw: "",
      rawBytes: 0,
      missed: reason !== undefined,
      missedBytes: 0,
      ...(reason ? { reason } : {}),
      closed: this.closedFlag,
      ...(this.closedFlag && this.exit ? { exit: this.exit } : {}),
      streaming: this.streamingFlag,
      truncated: limited.truncated,
      patch: patchScreen(undefined, this.frame(), [], limits),
    };
  }
}

/** Nothing new: also nothing that limits cut (maxLines: 0 must still wake on a row change). */
function isEmpty(delta: Delta): boolean {
  const cut = delta.truncated.rows > 0 || delta.truncated.rawChars > 0;
  return delta.rows.length === 0 && delta.raw === "" && !delta.missed && !delta.closed && !cut;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
