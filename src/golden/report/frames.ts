// A recording made playable without a player library: the cast is replayed through observe's
// Screen (the emulator the goldens use) and a bounded number of its screens are kept as frames of
// HTML rows with colours, which the report's small script steps through.

import { parseSize, type Cast } from "../../evidence/cast.js";
import { rowCells, rowStyles, styleKey } from "../../evidence/grid.js";
import { DEFAULT_BG, DEFAULT_FG, paint, type CellStyle } from "../../evidence/palette.js";
import { escapeHtml } from "../../evidence/page.js";
import { Screen } from "../../observe/emulator/screen.js";
import type { ScreenSnapshot } from "../../observe/emulator/snapshot.js";

/** At most this many frames per recording: a long run is sampled evenly, its last screen always kept. */
export const MAX_FRAMES = 120;

export interface PlayerFrame {
  /** Seconds from the start of the recording. */
  t: number;
  /** The screen as HTML rows (spans with inline colours), escaped. */
  html: string;
}

/** Indexes of the events after which a frame is taken: every one, or an even sample ending with the last. */
export function sampleEvents(count: number, max = MAX_FRAMES): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: max }, (_, k) => Math.round(((k + 1) * count) / max) - 1);
}

/** One screen as rows of spans; a span per run of one style, defaults left to the page. */
export function screenHtml(screen: ScreenSnapshot): string {
  const rows: string[] = [];
  for (let row = 0; row < screen.rows; row++) {
    const styles = rowStyles(screen, row);
    let html = "";
    let run = "";
    let runStyle: CellStyle | undefined;
    let key: string | undefined;
    const flush = (): void => {
      if (run !== "") html += span(run, runStyle);
      run = "";
    };
    for (const cell of rowCells(screen.lines[row] ?? "", undefined, screen.cols)) {
      const k = styleKey(styles[cell.col]);
      if (k !== key) {
        flush();
        key = k;
        runStyle = styles[cell.col];
      }
      run += cell.text;
    }
    flush();
    rows.push(html);
  }
  return rows.join("\n");
}

/** Text in one style: colours the terminal's defaults are left to the page's own. */
function span(text: string, style: CellStyle | undefined): string {
  if (style === undefined) return escapeHtml(text);
  const p = paint(style);
  // Dim fades the glyph only, as in the SVG and xterm.js (an opacity would fade the background too).
  const dim = p.opacity < 1 ? Math.round(p.opacity * 255).toString(16).padStart(2, "0") : "";
  const lines = [style.underline ? "underline" : "", style.strikethrough ? "line-through" : ""].filter((s) => s !== "");
  const css = [
    style.hidden ? "color:transparent" : p.fg !== DEFAULT_FG || dim !== "" ? `color:${p.fg}${dim}` : "",
    p.bg !== DEFAULT_BG ? `background:${p.bg}` : "",
    style.bold ? "font-weight:bold" : "",
    style.italic ? "font-style:italic" : "",
    lines.length > 0 ? `text-decoration:${lines.join(" ")}` : "",
  ].filter((s) => s !== "");
  return css.length === 0 ? escapeHtml(text) : `<span style="${css.join(";")}">${escapeHtml(text)}</span>`;
}

/** Replays the cast and keeps at most `max` frames (the first screen before any output is frame 0). */
export async function castFrames(cast: Cast, max = MAX_FRAMES): Promise<PlayerFrame[]> {
  const screen = new Screen({ cols: cast.header.width, rows: cast.header.height });
  try {
    const frames: PlayerFrame[] = [{ t: 0, html: screenHtml(screen.snapshot()) }];
    const keep = new Set(sampleEvents(cast.events.length, Math.max(1, max - 1)));
    for (const [i, [t, code, data]] of cast.events.entries()) {
      if (code === "o") await new Promise<void>((done) => screen.write(data, done));
      const size = code === "r" ? parseSize(data) : undefined;
      if (size) screen.resize(size.cols, size.rows);
      if (keep.has(i)) {
        await screen.flush();
        frames.push({ t, html: screenHtml(screen.snapshot()) });
      }
    }
    return frames;
  } finally {
    screen.dispose();
  }
}
