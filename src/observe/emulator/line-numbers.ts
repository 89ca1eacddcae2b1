// Absolute line numbers for one terminal: a line keeps its number as it scrolls up, and the count
// goes on past lines the scrollback trims, that a clear drops, or that a flood skip never parsed.
// xterm has no public trim event: trims are counted through a marker, re-placed before it can be
// trimmed itself (each scroll trims at most one line).
import type { IMarker, Terminal as XTerminal } from "@xterm/headless";

export class LineNumbers {
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
    this.trimmed = this.markerAbs - marker.line;
    // Near the buffer's top trims soon reach it: re-anchor at the bottom row, unless it sits there
    // already (no history yet: re-placing it on every look cost a marker per read).
    const rows = this.term.rows;
    const bottom = this.buffers.normal.baseY + rows - 1;
    if (marker.line < rows && marker.line < bottom && !this.alternate) this.place();
  }

  /**
   * Anchors a fresh marker at the bottom screen row. After a resize, reflow moves the marker both
   * ways without trimming anything: reading it then would count re-wrapped lines as trimmed.
   */
  place(): void {
    if (this.alternate) return; // markers are not available in the alternate buffer (xterm 6.0)
    this.marker?.dispose();
    // registerMarker(offset) is relative to the cursor row.
    this.marker = this.term.registerMarker(this.term.rows - 1 - this.buffers.normal.cursorY);
    if (this.marker) this.markerAbs = this.trimmed + this.marker.line;
  }

  dispose(): void {
    this.marker?.dispose();
  }

  private get alternate(): boolean {
    return this.buffers.active.type === "alternate";
  }

  /** The normal buffer's history is about to be dropped (CSI 3J, RIS). */
  private historyCleared(): void {
    this.follow();
    this.trimmed += this.buffers.normal.baseY;
    this.marker?.dispose();
    this.marker = undefined;
  }
}
