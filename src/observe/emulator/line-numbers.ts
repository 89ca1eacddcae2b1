// Absolute line numbers for one terminal: a line keeps its number as it scrolls up, and the count
// goes on past lines the scrollback trims, that a clear drops, or that a flood skip never parsed.
// xterm has no public trim event: trims are counted through a marker, re-placed before it can be
// trimmed itself (each scroll trims at most one line).
import type { IMarker, Terminal as XTerminal } from "@xterm/headless";

export class LineNumbers {
  /** Lines the normal buffer keeps above the screen (fixed for the terminal's life). */
  private readonly scrollback: number;
  /** Lines trimmed off the top of the normal buffer's scrollback since the start. */
  private trimmed = 0;
  /** A marker near the bottom of the normal buffer: its line falls by one per trimmed line. */
  private marker: IMarker | undefined;
  private markerAbs = 0;

  /** `buffers` is term.buffer, fetched once by the screen (each access costs; see Screen.buffers). */
  constructor(
    private readonly term: XTerminal,
    private readonly buffers: XTerminal["buffer"],
    /** Absolute number of the first line: a re-seeded screen continues after its predecessor's lines. */
    private readonly lineBase: number,
  ) {
    // Clearing the scrollback (`clear` sends CSI 3J; `reset` and `printf '\033c'` send RIS) drops
    // history lines without a trim and moves xterm's line positions back: count them as trimmed, so
    // line numbers never go backwards and the visible rows keep theirs. Handlers run before xterm's.
    this.scrollback = term.options.scrollback ?? 0;
    term.parser.registerCsiHandler({ final: "J" }, (params) => {
      if (params[0] === 3 && !this.alternate) this.historyCleared();
      return false;
    });
    term.parser.registerEscHandler({ final: "c" }, () => {
      this.historyCleared();
      return false;
    });
    this.place();
  }

  /** Absolute number of the normal buffer's oldest line held, as of the last follow(). */
  get held(): number {
    return this.lineBase + this.trimmed;
  }

  /** Absolute number of screen row 0 (the normal buffer's, frozen while the alternate is shown). */
  get top(): number {
    this.follow();
    return this.held + this.buffers.normal.baseY;
  }

  /** Oldest absolute line still held in the normal buffer. */
  get first(): number {
    this.follow();
    return this.held;
  }

  /** Lines a flood skip scrolled past without parsing them count as trimmed, in the marker's reckoning too. */
  skipped(scrolls: number): void {
    this.trimmed += scrolls;
    this.markerAbs += scrolls;
  }

  /** Catches the count up with the trims since the last look; call at each scroll. */
  follow(): void {
    const marker = this.marker;
    if (!marker || marker.isDisposed) {
      // Dropped with the history (historyCleared) or with its line: anchor a new one. Its line is
      // counted from the current trim count, which already includes what was dropped.
      if (!this.alternate) this.place();
      return;
    }
    const normal = this.buffers.normal;
    if (normal.length < this.term.rows + this.scrollback) {
      // Nothing is trimmed before the scrollback is full: a marker that moved then sat on the screen
      // (no history yet) and moved with a line deleted or inserted above it (CSI M, CSI S, CSI L).
      // Counted as trims, one CSI M renumbered every row and told readers missed: overflow.
      if (this.markerAbs - this.trimmed !== marker.line) {
        this.place();
        return;
      }
    } else this.trimmed = this.markerAbs - marker.line;
    // Near the buffer's top trims soon reach it: re-anchor lower, unless it sits as low as it can
    // already (little history yet: re-placing it on every look cost a marker per read).
    if (marker.line < this.term.rows && marker.line < this.anchorLine() && !this.alternate) this.place();
  }

  /**
   * Anchors a fresh marker (anchorLine). After a resize, reflow moves the marker both ways without
   * trimming anything: reading it then would count re-wrapped lines as trimmed.
   */
  place(): void {
    if (this.alternate) return; // markers are not available in the alternate buffer (xterm 6.0)
    this.marker?.dispose();
    const normal = this.buffers.normal;
    // registerMarker(offset) is relative to the cursor row.
    this.marker = this.term.registerMarker(this.anchorLine() - normal.baseY - normal.cursorY);
    if (this.marker) this.markerAbs = this.trimmed + this.marker.line;
  }

  /**
   * Where a marker is anchored: the newest history line, or the bottom row while there is no
   * history. Not on the screen when it can be helped: erasing rows (ED) disposes their markers, and
   * a trim before the next look then went uncounted, shifting every line's number by one (found by
   * test/observe/pane/view.test.ts: `clear`, then a scroll with the scrollback full).
   */
  private anchorLine(): number {
    const baseY = this.buffers.normal.baseY;
    return baseY > 0 ? baseY - 1 : this.term.rows - 1;
  }

  /**
   * A resize's reflow moved the lines without trimming any: keep the count. The marker is anchored
   * afresh, or, while the alternate buffer is shown (no marker can be placed then), its new line is
   * taken as it is: xterm reflows the normal buffer at once, behind the alternate one, and reading the
   * marker's move as trims later shifted every history line's number by it (tmux 3.3a, vim resized).
   */
  reflowed(): void {
    if (!this.alternate || !this.marker || this.marker.isDisposed) this.place();
    else this.markerAbs = this.trimmed + this.marker.line;
  }

  dispose(): void {
    this.marker?.dispose();
  }

  private get alternate(): boolean {
    return this.buffers.active.type === "alternate";
  }

  /** Scrollback clears so far: each moves every line's text without a scroll (a view must take them again). */
  clears = 0;

  /**
   * The latest lines a history clear dropped (LineSource.erased): the program erased them, so none
   * was lost, whoever had not read them yet. Absolute, end exclusive; clears in a row join up.
   */
  erased = { from: 0, to: 0 };

  /** The normal buffer's history is about to be dropped (CSI 3J, RIS). */
  private historyCleared(): void {
    this.clears++;
    this.follow();
    const from = this.held;
    this.trimmed += this.buffers.normal.baseY;
    const last = this.erased;
    this.erased = last.to >= from && last.to > last.from ? { from: last.from, to: this.held } : { from, to: this.held };
    this.marker?.dispose();
    this.marker = undefined;
  }
}
