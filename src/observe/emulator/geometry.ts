// How big a pane panescope emulates. Any program in a pane can make its window huge
// (`tmux resize-window -x 10000 -y 10000`), and xterm keeps ~12 bytes a cell for the screen and
// every scrollback line: that one command took panescope past a GiB and held every call for
// seconds while it allocated (docs/benchmarks.md, history). So the emulator is at most MAX_EMULATED_COLS × MAX_EMULATED_ROWS
// (≈ 12 MiB of screen plus 12 MiB of 1000 scrollback lines at the most), and a pane beyond that is
// flagged to readers as `screen.capped` with its real size: rows and columns past the cap are not
// shown, and lines longer than the cap wrap where tmux's do not.

/** Columns the emulator has at most (open_pane's own limit too). */
export const MAX_EMULATED_COLS = 1000;
/** Rows the emulator has at most. */
export const MAX_EMULATED_ROWS = 1000;

export interface Geometry {
  cols: number;
  rows: number;
}

/** The size to emulate for a pane of `size`. */
export function emulatedSize(size: Geometry): Geometry {
  return { cols: Math.min(size.cols, MAX_EMULATED_COLS), rows: Math.min(size.rows, MAX_EMULATED_ROWS) };
}

/** The pane's real size when it is beyond the cap, else undefined. */
export function beyondCap(size: Geometry): Geometry | undefined {
  return size.cols > MAX_EMULATED_COLS || size.rows > MAX_EMULATED_ROWS ? { cols: size.cols, rows: size.rows } : undefined;
}
