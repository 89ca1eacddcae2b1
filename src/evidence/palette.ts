// Colours as a person sees them: xterm.js's default theme (16 colours, the 256-colour cube and
// greys, truecolor), resolved with bold, dim and inverse the way xterm.js draws a cell. Pure.
import type { Colour, StyleRun } from "../observe/snapshot.js";

/** xterm.js's default 16 colours (DEFAULT_ANSI_COLORS in its common/Color.ts, v5–v6). */
const ANSI16 = [
  "#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
  "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
];
const CUBE = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff];

/** xterm.js's default foreground, background and cursor. */
export const DEFAULT_FG = "#ffffff";
export const DEFAULT_BG = "#000000";
export const CURSOR = "#ffffff";
/** xterm.js draws dim text at half opacity (DIM_OPACITY). */
export const DIM_OPACITY = 0.5;

function hex(r: number, g: number, b: number): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** Palette entry 0–255 as CSS hex: the 16 theme colours, the 6×6×6 cube, then 24 greys. */
export function paletteHex(index: number): string {
  if (index < 16) return ANSI16[Math.max(0, index)] ?? DEFAULT_FG;
  if (index < 232) {
    const i = index - 16;
    return hex(CUBE[Math.floor(i / 36) % 6] ?? 0, CUBE[Math.floor(i / 6) % 6] ?? 0, CUBE[i % 6] ?? 0);
  }
  const grey = 8 + (Math.min(index, 255) - 232) * 10;
  return hex(grey, grey, grey);
}

/** A colour as CSS hex; `fallback` stands for the terminal's default. */
export function colourHex(colour: Colour | undefined, fallback: string): string {
  if (!colour || colour.kind === "default") return fallback;
  if (colour.kind === "rgb") return hex((colour.rgb >> 16) & 255, (colour.rgb >> 8) & 255, colour.rgb & 255);
  return paletteHex(colour.index);
}

/** The attributes of a cell that decide how it is painted. */
export type CellStyle = Omit<StyleRun, "row" | "start" | "end">;

/** What a cell looks like: its glyph colour and background as hex, and the glyph's opacity. */
export interface Paint {
  fg: string;
  bg: string;
  opacity: number;
}

/**
 * How xterm.js paints a cell: bold brightens palette colours 0–7 (drawBoldTextInBrightColors,
 * on by default), inverse swaps the resolved colours, dim halves the glyph's opacity.
 */
export function paint(style: CellStyle): Paint {
  let fgColour = style.fg;
  if (style.bold && fgColour?.kind === "palette" && fgColour.index < 8) fgColour = { kind: "palette", index: fgColour.index + 8 };
  let fg = colourHex(fgColour, DEFAULT_FG);
  let bg = colourHex(style.bg, DEFAULT_BG);
  if (style.inverse) [fg, bg] = [bg, fg];
  return { fg, bg, opacity: style.dim ? DIM_OPACITY : 1 };
}
