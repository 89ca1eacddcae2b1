// The pane observer: one pane's byte stream kept twice — a byte ring (raw) and a headless screen
// (rows, replica.ts) — answering "what changed since this cursor" in both forms. Knows nothing of
// tmux or MCP.
import { isEmpty, type Delta, type MissedReason, type PaneExit, type ReadLimits } from "../read/delta.js";
import { RawStream } from "../raw/stream.js";
import { DEFAULT_SCROLLBACK } from "../emulator/screen.js";
import type { ScreenSnapshot } from "../emulator/snapshot.js";
import type { ScreenState } from "../emulator/seed.js";
import type { StripState } from "../raw/strip.js";
import type { CursorFields } from "../cursor/codec.js";
import { BreakLog } from "./breaks.js";
import { HealLog } from "./heals.js";
import { Wakeup } from "./wakeup.js";
import type { WidthPolicy } from "../widths/policy.js";
import { PaneCursors, type PaneIdentity } from "./cursors.js";
import { READ_CATCH_UP_MS, Replica, type OnStale } from "./replica.js";
import { firstAnswer, newsAnswer, type Standing } from "./answer.js";
import { newsSince } from "./news.js";
import type { RowBound } from "./rows.js";
import { Taps, type PaneTap } from "./tap.js";
import type { PaneState, PublicationSink, PublicationStart } from "./publication.js";

export type { PaneIdentity } from "./cursors.js";
export { MAX_SCREEN_BACKLOG } from "./replica.js";

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
  onStale?: OnStale;
  /** Character widths of the tmux in use (default: xterm's Unicode 11). */
  widths?: WidthPolicy;
}

export class PaneObserver {
  readonly identity: PaneIdentity;
  private readonly cursors: PaneCursors;
  private readonly raw: RawStream;
  private readonly replica: Replica;
  private readonly breaks = new BreakLog();
  private readonly heals = new HealLog();
  private readonly predecessor: MissedReason | undefined;
  private readonly wakeup = new Wakeup();
  private closedFlag = false;
  /** How the program ended, when tmux said (remain-on-exit panes keep it). */
  private exit: PaneExit | undefined;
  private streamingFlag = true;
  private readonly taps = new Taps();
  private readonly key: Uint8Array;
  /** Where this observer publishes for a read view on another thread (publication.ts), if anywhere. */
  private sink: PublicationSink | undefined;

  constructor(options: PaneObserverOptions) {
    this.identity = options.identity;
    this.cursors = new PaneCursors(options.identity, options.key);
    this.raw = new RawStream(options.ringBytes, options.startOffset ?? 0);
    this.predecessor = options.predecessor;
    this.key = options.key;
    this.replica = new Replica({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback ?? DEFAULT_SCROLLBACK,
      widths: options.widths,
      applied: this.raw.base,
      seq: options.startSeq ?? 0,
      onStale: options.onStale,
      waited: () => this.wakeup.size > 0,
      notify: () => this.notify(),
    });
  }

  /** From now on, tells `sink` what a read view must hear of (every cursor issued is at a publication). */
  publishTo(sink: PublicationSink): void {
    this.sink = sink;
    sink.changed();
  }

  /** What a read view depends on beside this observer changed (its watch's checks): publish again soon. */
  republish(): void {
    this.sink?.changed();
  }

  /** What a view needs before the first publication: its cursors' binding and where its stream starts. */
  publicationStart(): Omit<PublicationStart, "cursors"> {
    return { identity: this.identity, key: this.key, rawBase: this.raw.base, ringBytes: this.raw.capacity, predecessor: this.predecessor };
  }

  /** The state a read view needs, diffed since `seq` (the last publication's); parses nothing. */
  publication(seq: number): PaneState {
    const replica = this.replica;
    const { rows, firstLine, lost, scrolled, every, frames } = replica.publication(seq);
    return {
      generation: replica.generation,
      applied: replica.applied,
      seq: replica.seq,
      rows,
      firstLine,
      every,
      lost,
      scrolled,
      frames,
      geometry: replica.geometry(),
      frame: replica.frame(),
      closed: this.closedFlag,
      exit: this.exit,
      streaming: this.streamingFlag,
    };
  }

  get paneId(): string {
    return this.identity.paneId;
  }

  /** The tag of the tmux server's socket its cursors carry (codec's socketTag; undefined: unknown). */
  get socketTag(): number | undefined {
    return this.cursors.socketTag;
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
    return this.replica.seq;
  }

  /** Readers waiting for news now (an observer with waiters is not retired). */
  get waiting(): number {
    return this.wakeup.size;
  }

  /** Whether a recorder listens to this pane (tap). */
  get tapped(): boolean {
    return this.taps.size > 0;
  }

  /** How the pane's program ended, once closed and known. */
  get exitInfo(): PaneExit | undefined {
    return this.closedFlag ? this.exit : undefined;
  }

  /** Bytes received and not yet applied by the emulator (bounded by MAX_SCREEN_BACKLOG). */
  get pending(): number {
    return this.replica.screen.backlog;
  }

  get size(): { cols: number; rows: number } {
    const screen = this.replica.screen;
    return { cols: screen.cols, rows: screen.rows };
  }

  /** Whether the screen shows the alternate buffer, as far as it has parsed. */
  get alternate(): boolean {
    return this.replica.screen.alternate;
  }

  /** The pane is larger than panescope emulates: answers say so (screen.capped). */
  get capped(): boolean {
    return this.replica.capped;
  }

  /** Heals since this observer started (list_panes, logs). */
  get healCount(): number {
    return this.heals.count;
  }

  /** The character widths of the tmux in use, when known (screenshots lay cells out with them). */
  get widthPolicy(): WidthPolicy | undefined {
    return this.replica.widths;
  }

  /**
   * Listens to the stream (recordings); returns the way to stop. The tap starts with the screen
   * all output so far drew, parsed now, so no byte is both in that screen and in a later event.
   */
  tap(tap: PaneTap): () => void {
    const screen = this.replica.screen;
    screen.hurry();
    // A 4 MiB backlog is at most 128 slices; the bound only matters if called while parsing.
    for (let slices = 0; slices < 1024 && screen.pump(); slices++);
    tap.start?.(screen.snapshot(), screen.alternate ? screen.snapshot("normal") : undefined, screen.modes());
    return this.taps.add(tap);
  }

  /** Puts tmux's view of the pane into the screen before live bytes (race-free: docs/architecture.md, step 1). */
  seed(state: ScreenState): void {
    this.taps.emit((t) => t.screen?.(state, "seed"));
    this.replica.seed(state);
  }

  /**
   * Output was lost (tmux paused the pane, or the stream broke): start a fresh screen from tmux's
   * view, keep line numbers increasing, and flag the gap for every reader whose cursor precedes it.
   */
  reseed(state: ScreenState, reason: MissedReason): void {
    this.taps.emit((t) => t.screen?.(state, reason));
    this.replica.replace(state, this.offset);
    this.addBreak(reason, 0);
  }

  /**
   * Nothing was lost but the screen may differ from tmux's (after a resize tmux keeps the cursor
   * row while xterm's reflow keeps the top row: golden/streams/shell-resize): take tmux's screen.
   * Every row is reported again, with new line numbers.
   */
  resync(state: ScreenState): void {
    this.taps.emit((t) => t.screen?.(state, "resync"));
    this.replica.replace(state, this.offset);
  }

  /**
   * The replica audit found our screen differs from tmux's with nothing lost (an emulator that draws
   * some text differently, a mode the seed could not know): take tmux's screen, keeping every line
   * number, so only the rows that differ are news, and log them as healed for every reader whose
   * cursor precedes this. Call at rest: every byte received must be in `state`.
   */
  /** `applied` runs once tmux's screen is in, before readers are woken (a pane's end rides along). */
  heal(state: ScreenState, rows: readonly number[], applied?: () => void): void {
    const top = this.replica.screen.top;
    this.taps.emit((t) => t.screen?.(state, "heal"));
    this.replica.heal(state, this.offset, () => {
      if (rows.length > 0) {
        const lines = rows.map((y) => top + y);
        this.heals.add(this.replica.seq, lines);
        this.sink?.healed(this.replica.seq, lines);
      }
      applied?.();
      this.notify();
    });
  }

  /** Bytes whose effect on the screen arrives with the next resync's capture: kept as raw only. */
  appendRaw(bytes: Uint8Array): void {
    this.raw.append(bytes);
    this.sink?.raw(bytes);
  }

  /** Live bytes from the pane. */
  ingest(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.raw.append(bytes);
    this.sink?.raw(bytes);
    this.taps.emit((t) => t.output?.(bytes));
    this.replica.ingest(bytes, this.offset);
  }

  resize(cols: number, rows: number): void {
    this.taps.emit((t) => t.resize?.(cols, rows));
    this.replica.resize(cols, rows);
  }

  /** The pane's process exited or the pane is gone: the final screen stays readable. */
  markClosed(exit?: PaneExit): void {
    const known = this.exit;
    if (exit && (exit.status !== undefined || exit.signal !== undefined)) this.exit ??= exit;
    // Told how it ended after it closed: a read view must hear it too.
    if (this.closedFlag && this.exit !== known) this.sink?.changed();
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
    const seq = this.replica.advance();
    this.breaks.add(seq, reason, bytes);
    this.sink?.gap(seq, reason, bytes);
    this.taps.emit((t) => t.gap?.(reason, bytes));
    this.notify();
  }

  /** Current screen as text rows (and optionally history lines above it). */
  async screenText(history = 0): Promise<{ history: string[]; rows: string[]; screen: Delta["screen"] }> {
    await this.settle();
    const screen = this.replica.screen;
    return { history: screen.historyRows(history), rows: screen.visibleRows(), screen: this.replica.geometry() };
  }

  /**
   * The visible rows as displayed (the cursor's row keeps its blanks up to the cursor), for
   * matching, with the rows a soft wrap continues (`wraps`, Screen.wrapTails).
   */
  async displayedScreen(): Promise<{ rows: string[]; wraps: (string | undefined)[]; screen: Delta["screen"] }> {
    await this.settle();
    const screen = this.replica.screen;
    return { rows: screen.displayedRows(), wraps: screen.wrapTails(), screen: this.replica.geometry() };
  }

  async screenAnsi(): Promise<string[]> {
    await this.settle();
    return this.replica.screen.visibleRowsAnsi();
  }

  async snapshot(): Promise<ScreenSnapshot> {
    await this.settle();
    return this.replica.screen.snapshot();
  }

  /**
   * A cursor's fields, decoded here unless the caller already did (the hub decodes once per read),
   * checked to be this pane's; throws typed errors for caller mistakes.
   */
  decode(cursor: string | CursorFields): CursorFields {
    return this.cursors.decode(cursor);
  }

  /** What changed since `cursor` (none: the visible screen, starting a watch). */
  async read(cursor?: string | CursorFields, limits: ReadLimits = {}): Promise<Delta> {
    const fields = cursor === undefined ? undefined : this.decode(cursor);
    await this.settle(READ_CATCH_UP_MS);
    return this.answer(fields, limits);
  }

  /**
   * Like read, but when nothing is new, waits up to `waitMs` for output to be applied, for the
   * pane to close, or for the signal to abort. Event-driven: woken by the screen, never polled.
   */
  async waitForChange(cursor: string | CursorFields | undefined, waitMs: number, signal?: AbortSignal, limits: ReadLimits = {}): Promise<Delta> {
    const fields = cursor === undefined ? undefined : this.decode(cursor);
    await this.settle(READ_CATCH_UP_MS);
    let delta = this.compose(fields, limits);
    let waited = false;
    const deadline = Date.now() + waitMs;
    while (fields && isEmpty(delta) && !signal?.aborted && Date.now() < deadline) {
      // Output queued since the answer above is parsed on the next turn, not after a delay.
      this.replica.screen.hurry();
      await this.wakeup.next(deadline - Date.now(), signal);
      waited = true;
      const behind = this.settle(READ_CATCH_UP_MS);
      if (behind) await behind;
      delta = this.compose(fields, limits);
    }
    // Only the answer given issues its cursor; a wake's is published after it (PublicationSink.issued).
    this.sink?.issued(!waited);
    return delta;
  }

  dispose(): void {
    this.replica.dispose();
    this.markClosed();
  }

  /** Replica.settle; a closed pane sends nothing more, so its answer holds every byte it sent. */
  private settle(limitMs?: number): Promise<void> | undefined {
    return this.replica.settle(this.closedFlag ? undefined : limitMs);
  }

  private notify(): void {
    this.sink?.changed();
    this.wakeup.notify();
  }

  /** The answer to a read at what is applied now; its cursor is published at once (PublicationSink.issued). */
  private answer(fields: CursorFields | undefined, limits: ReadLimits): Delta {
    const delta = this.compose(fields, limits);
    this.sink?.issued(true);
    return delta;
  }

  private compose(fields: CursorFields | undefined, limits: ReadLimits): Delta {
    const replica = this.replica;
    const held = { base: this.raw.base, applied: replica.applied, seq: replica.seq };
    const reason = fields ? this.cursors.discontinuity(fields, held, this.predecessor) : undefined;
    if (!fields || reason) {
      const standing = this.standing(this.raw.stateAt(replica.applied));
      return firstAnswer(standing, replica.screen.visibleRows(), limits, reason);
    }
    const source = { raw: this.raw, breaks: this.breaks, heals: this.heals, applied: replica.applied, changedSince: (seq: number, bound?: RowBound) => replica.changedSince(seq, bound), frameAt: (seq: number) => replica.frameAt(seq) };
    const { news, strip } = newsSince(fields, source, limits);
    return newsAnswer(this.standing(strip), news, limits);
  }

  /** What an answer says besides its news, with a cursor at what is applied (`strip`: the stripper's state there). */
  private standing(strip: StripState): Standing {
    const replica = this.replica;
    return {
      paneId: this.paneId,
      cursor: this.cursors.issue(replica.applied, replica.seq, strip),
      screen: replica.geometry(),
      frame: replica.frame(),
      closed: this.closedFlag,
      exit: this.exit,
      streaming: this.streamingFlag,
    };
  }
}
