// A rendered screen at one moment: the rows as text plus a sparse list of styled runs.
// Produced by the screen (xterm), consumed by capture_pane and golden-file testing.

/** A colour as the terminal holds it: default, one of 256 palette entries, or 24-bit RGB. */
export type Colour = { kind: "default" } | { kind: "palette"; index: number } | { kind: "rgb"; rgb: number };

/** The underlines besides a single line, as SGR 4:2, 4:3, 4:4 and 4:5 draw them. */
export type UnderlineStyle = "double" | "curly" | "dotted" | "dashed";

/** A run of cells on one row that share non-default attributes. Columns are cell columns, end exclusive. */
export interface StyleRun {
  row: number;
  start: number;
  end: number;
  fg?: Colour;
  bg?: Colour;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  /** SGR 4:2–4:5, an underline other than a single line (`underline` is true too). */
  underlineStyle?: UnderlineStyle;
  /** SGR 58: the underline's own colour (absent: the text's). */
  underlineColour?: Colour;
  /** SGR 53. */
  overline?: boolean;
  /** SGR 5: a terminal shows the text and hides it by turns. */
  blink?: boolean;
  inverse?: boolean;
  strikethrough?: boolean;
  /** SGR 8: the text is there (tmux captures it) but a terminal shows none of it. */
  hidden?: boolean;
}

export interface ScreenSnapshot {
  cols: number;
  rows: number;
  cursorX: number;
  cursorY: number;
  /** False when the program hid the cursor (`ESC[?25l`): its position then means nothing to a person. */
  cursorVisible: boolean;
  alternate: boolean;
  /** Exactly `rows` strings; each is the row's text with trailing blanks removed. */
  lines: string[];
  /** Only runs with some non-default attribute, in row then column order. */
  styles: StyleRun[];
}
