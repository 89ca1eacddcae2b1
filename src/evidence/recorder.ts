// Turns one pane observer's stream into asciicast events: output when it arrived, resizes as "r",
// screens taken from tmux drawn as output, and every gap marked ("m") before the screen that
// follows it. Pure: a clock and a sink come in; asking tmux for a screen is the caller's job.
import type { MissedReason, PaneExit } from "../observe/read/delta.js";
import type { ScreenModes, ScreenState } from "../observe/emulator/seed.js";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import type { PaneTap, ScreenCause } from "../observe/pane/tap.js";
import { snapshotToAnsi, stateToAnsi } from "./ansi.js";
import { CastWriter, type CastHeader } from "./cast.js";
import type { WidthOf } from "./grid.js";

export interface RecorderOptions {
  /** Seconds on a monotonic clock; the cast counts from the first event (the screen at the start). */
  clock: () => number;
  /** Where the cast's lines go, each ending in "\n". */
  sink: (line: string) => void;
  /** Header fields besides the size (which is the pane's at the start). */
  header?: Omit<CastHeader, "version" | "width" | "height">;
  widthOf?: WidthOf;
  /**
   * Output was lost with no screen taken: the caller takes tmux's screen and calls `redraw`, or
   * ("respawned": this observer hears no more) taps the pane's new observer with this recorder.
   */
  onGap?: (reason: MissedReason) => void;
  /** The pane closed: the recording is over. */
  onEnd?: (exit?: PaneExit) => void;
}

export class CastRecorder implements PaneTap {
  private writer: CastWriter | undefined;
  private size = { cols: 0, rows: 0 };
  /** The reason of a reseed just marked: its gap event that follows is the same loss. */
  private marked: MissedReason | undefined;
  private events = 0;
  private origin = 0;

  constructor(private readonly options: RecorderOptions) {}

  /** Events written after the header. */
  get count(): number {
    return this.events;
  }

  /** The screen at the start; again after a respawn (the successor's screen, drawn in the same cast). */
  start(screen: ScreenSnapshot, normal?: ScreenSnapshot, modes?: ScreenModes): void {
    if (this.writer) {
      this.resize(screen.cols, screen.rows);
      this.writer.output(this.now(), snapshotToAnsi(screen, this.options.widthOf, normal, modes));
      return;
    }
    this.origin = this.options.clock();
    this.size = { cols: screen.cols, rows: screen.rows };
    const header: CastHeader = { version: 2, width: screen.cols, height: screen.rows, ...this.options.header };
    this.writer = new CastWriter(header, (line) => {
      this.options.sink(line);
      this.events++;
    });
    this.events = 0;
    this.writer.output(this.now(), snapshotToAnsi(screen, this.options.widthOf, normal, modes));
  }

  output(bytes: Uint8Array): void {
    this.writer?.output(this.now(), bytes);
  }

  resize(cols: number, rows: number): void {
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols, rows };
    this.writer?.resize(this.now(), cols, rows);
  }

  screen(state: ScreenState, cause: ScreenCause): void {
    this.marked = undefined;
    if (!["seed", "resync", "heal"].includes(cause)) {
      this.mark(cause as MissedReason);
      this.marked = cause as MissedReason;
    }
    this.redraw(state);
  }

  /** Draws tmux's screen as output (after a gap, or whenever the caller took it). */
  redraw(state: ScreenState): void {
    this.resize(state.cols, state.rows);
    this.writer?.output(this.now(), stateToAnsi(state));
  }

  gap(reason: MissedReason): void {
    if (this.marked === reason) {
      this.marked = undefined;
      return;
    }
    this.mark(reason);
    this.options.onGap?.(reason);
  }

  closed(exit?: PaneExit): void {
    this.options.onEnd?.(exit);
  }

  /** Ends the cast (a character cut at the very end is written as U+FFFD). */
  end(): void {
    this.writer?.end(this.now());
  }

  private mark(reason: MissedReason): void {
    this.writer?.marker(this.now(), `missed: ${reason}`);
  }

  private now(): number {
    return this.options.clock() - this.origin;
  }
}
