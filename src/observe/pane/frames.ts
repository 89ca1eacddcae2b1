// The screens readers were last shown: a small ring of visible-row snapshots keyed by render
// sequence. A cursor carries its sequence, so a read can diff the screen now against exactly the
// screen that cursor's reader holds (screen-patch.ts). Bounded; a frame no longer kept is undefined.

/** The visible screen at one render sequence. `rows` is never mutated once recorded. */
export interface Frame {
  rows: readonly string[];
  cols: number;
  alternate: boolean;
  /**
   * Absolute line number of row 0 (Screen.top): on the normal screen, how far lines scrolled into
   * history between two frames, even when the screen then reads the same. Absent: not known.
   */
  top?: number;
}

/** Enough for readers that lag a few hundred refreshes; more only costs memory. */
const MAX_FRAMES = 64;
/** Characters of row text kept across frames (rows shared between frames are counted each time). */
const MAX_CHARS = 512 * 1024;

export class FrameLog {
  private frames: Array<{ seq: number; frame: Frame; chars: number }> = [];
  private chars = 0;

  /** The screen as of `seq` (every visible change bumps the sequence, so it holds until the next). */
  record(seq: number, frame: Frame): void {
    const last = this.frames[this.frames.length - 1];
    if (last && last.seq >= seq) return;
    const chars = frame.rows.reduce((sum, row) => sum + row.length, 0);
    this.frames.push({ seq, frame, chars });
    this.chars += chars;
    while (this.frames.length > 1 && (this.frames.length > MAX_FRAMES || this.chars > MAX_CHARS)) {
      this.chars -= this.frames.shift()?.chars ?? 0;
    }
  }

  /** The frames recorded after `seq`, oldest first (a publication carries them: a view answers cursors issued at any of them). */
  since(seq: number): Array<{ seq: number; frame: Frame }> {
    return this.frames.filter((entry) => entry.seq > seq).map(({ seq: at, frame }) => ({ seq: at, frame }));
  }

  /**
   * The frame a reader at `seq` holds: the newest recorded at or before it. Every visible change
   * records a frame, so that one still holds at `seq`; a reader older than every kept frame gets none.
   */
  at(seq: number): Frame | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const entry = this.frames[i];
      if (entry && entry.seq <= seq) return entry.frame;
    }
    return undefined;
  }
}
