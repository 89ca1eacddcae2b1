// Cell attributes of a rendered line: as sparse style runs (golden files) or as SGR sequences
// (capture_pane with colours). Reads xterm cells; knows nothing of panes or tmux.
import type { IBufferCell, IBufferLine } from "@xterm/headless";
import type { Colour, StyleRun, UnderlineStyle } from "./snapshot.js";
import { underlineOf } from "./xterm-internals.js";

// xterm's colour modes (IBufferCell.getFgColorMode): 0 default, 0x1000000 palette 16, 0x2000000 palette 256, 0x3000000 RGB.
const CM_RGB = 0x3000000;

interface Attrs {
  fg: Colour;
  bg: Colour;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  /** Undefined for a single line (or none). */
  underlineStyle: UnderlineStyle | undefined;
  underlineColour: Colour;
  overline: boolean;
  blink: boolean;
  inverse: boolean;
  strikethrough: boolean;
  /** SGR 8 (conceal): the text is kept, a terminal draws none of it. */
  hidden: boolean;
}

function colourOf(mode: number, value: number): Colour {
  if (mode === 0) return { kind: "default" };
  if (mode === CM_RGB) return { kind: "rgb", rgb: value };
  return { kind: "palette", index: value };
}

/** xterm's underline styles 2–5 (1 is a single line). */
const UNDERLINE_STYLES: Record<number, UnderlineStyle> = { 2: "double", 3: "curly", 4: "dotted", 5: "dashed" };
const UNDERLINE_SGR: Record<UnderlineStyle, string> = { double: "4:2", curly: "4:3", dotted: "4:4", dashed: "4:5" };

function attrsOf(cell: IBufferCell): Attrs {
  const underline = underlineOf(cell);
  return {
    fg: colourOf(cell.getFgColorMode(), cell.getFgColor()),
    bg: colourOf(cell.getBgColorMode(), cell.getBgColor()),
    bold: cell.isBold() !== 0,
    dim: cell.isDim() !== 0,
    italic: cell.isItalic() !== 0,
    underline: underline.style !== 0,
    underlineStyle: UNDERLINE_STYLES[underline.style],
    underlineColour: colourOf(underline.colourMode, underline.colour),
    overline: cell.isOverline() !== 0,
    blink: cell.isBlink() !== 0,
    inverse: cell.isInverse() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
    hidden: cell.isInvisible() !== 0,
  };
}

function sameColour(a: Colour, b: Colour): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "palette" && b.kind === "palette") return a.index === b.index;
  if (a.kind === "rgb" && b.kind === "rgb") return a.rgb === b.rgb;
  return true;
}

function sameAttrs(a: Attrs, b: Attrs): boolean {
  return (
    sameColour(a.fg, b.fg) &&
    sameColour(a.bg, b.bg) &&
    a.bold === b.bold &&
    a.dim === b.dim &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.underlineStyle === b.underlineStyle &&
    sameColour(a.underlineColour, b.underlineColour) &&
    a.overline === b.overline &&
    a.blink === b.blink &&
    a.inverse === b.inverse &&
    a.strikethrough === b.strikethrough &&
    a.hidden === b.hidden
  );
}

function isPlain(a: Attrs): boolean {
  return (
    a.fg.kind === "default" &&
    a.bg.kind === "default" &&
    !a.bold &&
    !a.dim &&
    !a.italic &&
    !a.underline &&
    !a.overline &&
    !a.blink &&
    !a.inverse &&
    !a.strikethrough &&
    !a.hidden
  );
}

function runOf(row: number, start: number, end: number, a: Attrs): StyleRun {
  const run: StyleRun = { row, start, end };
  if (a.fg.kind !== "default") run.fg = a.fg;
  if (a.bg.kind !== "default") run.bg = a.bg;
  for (const flag of ["bold", "dim", "italic", "underline", "overline", "blink", "inverse", "strikethrough", "hidden"] as const) {
    if (a[flag]) run[flag] = true;
  }
  if (a.underline && a.underlineStyle) run.underlineStyle = a.underlineStyle;
  if (a.underline && a.underlineColour.kind !== "default") run.underlineColour = a.underlineColour;
  return run;
}

/** Runs of cells on one line that share a non-default style. */
export function lineStyles(line: IBufferLine, row: number, cols: number, cell: IBufferCell): StyleRun[] {
  const runs: StyleRun[] = [];
  let current: Attrs | undefined;
  let start = 0;
  const width = Math.min(cols, line.length);
  for (let x = 0; x <= width; x++) {
    const attrs = x < width && line.getCell(x, cell) ? attrsOf(cell) : undefined;
    if (current && attrs && sameAttrs(current, attrs)) continue;
    if (current && !isPlain(current)) runs.push(runOf(row, start, x, current));
    current = attrs;
    start = x;
  }
  return runs;
}

function sgrColour(c: Colour, base: 30 | 40): string {
  if (c.kind === "default") return String(base + 9);
  if (c.kind === "rgb") return `${base + 8};2;${(c.rgb >> 16) & 255};${(c.rgb >> 8) & 255};${c.rgb & 255}`;
  if (c.index < 8) return String(base + c.index);
  if (c.index < 16) return String(base + 60 + c.index - 8);
  return `${base + 8};5;${c.index}`;
}

function sgr(a: Attrs): string {
  const parts = ["0"];
  if (a.bold) parts.push("1");
  if (a.dim) parts.push("2");
  if (a.italic) parts.push("3");
  if (a.underline) parts.push(a.underlineStyle ? UNDERLINE_SGR[a.underlineStyle] : "4");
  if (a.blink) parts.push("5");
  if (a.inverse) parts.push("7");
  if (a.hidden) parts.push("8");
  if (a.strikethrough) parts.push("9");
  if (a.fg.kind !== "default") parts.push(sgrColour(a.fg, 30));
  if (a.bg.kind !== "default") parts.push(sgrColour(a.bg, 40));
  if (a.overline) parts.push("53");
  // Colons: a terminal that does not know SGR 58 skips it whole, not reads its 5 as blink.
  const ul = a.underlineColour;
  if (a.underline && ul.kind === "palette") parts.push(`58:5:${ul.index}`);
  if (a.underline && ul.kind === "rgb") parts.push(`58:2::${(ul.rgb >> 16) & 255}:${(ul.rgb >> 8) & 255}:${ul.rgb & 255}`);
  return `\x1b[${parts.join(";")}m`;
}

/** The line as text with SGR sequences where the style changes; trailing plain blanks removed. */
export function lineToAnsi(line: IBufferLine, cols: number, cell: IBufferCell): string {
  const width = Math.min(cols, line.length);
  // Keep cells up to the last one that shows something (a character or a coloured background).
  let last = -1;
  for (let x = 0; x < width; x++) {
    if (!line.getCell(x, cell)) continue;
    if (cell.getChars() !== "" && cell.getChars() !== " ") last = x;
    else if (!isPlain(attrsOf(cell))) last = x;
  }
  let out = "";
  let current: Attrs | undefined;
  for (let x = 0; x <= last; x++) {
    if (!line.getCell(x, cell)) continue;
    if (cell.getWidth() === 0) continue; // the second half of a wide character
    const attrs = attrsOf(cell);
    if (!current || !sameAttrs(current, attrs)) {
      out += isPlain(attrs) && current ? "\x1b[0m" : isPlain(attrs) ? "" : sgr(attrs);
      current = attrs;
    }
    out += cell.getChars() || " ";
  }
  if (current && !isPlain(current)) out += "\x1b[0m";
  return out;
}

/** The SGR sequence that sets exactly a run's attributes, from a reset (painting a snapshot). */
export function styleSgr(style: Omit<StyleRun, "row" | "start" | "end">): string {
  const plain: Colour = { kind: "default" };
  return sgr({
    fg: style.fg ?? plain,
    bg: style.bg ?? plain,
    bold: style.bold === true,
    dim: style.dim === true,
    italic: style.italic === true,
    underline: style.underline === true,
    underlineStyle: style.underlineStyle,
    underlineColour: style.underlineColour ?? plain,
    overline: style.overline === true,
    blink: style.blink === true,
    inverse: style.inverse === true,
    strikethrough: style.strikethrough === true,
    hidden: style.hidden === true,
  });
}
