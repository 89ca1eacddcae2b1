// Pure formatting for the demo: one capture_since answer as rendered rows beside raw output.
import type { Delta } from "../observe/delta.js";

/** Widest a column gets; on a narrower terminal both columns shrink to fit. */
const COLUMN = 46;

/** Cuts or pads to a display column count (the demo's text is ASCII plus a few one-cell symbols). */
function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, width - 1).join("")}…` : text + " ".repeat(width - chars.length);
}

/** Raw output as display lines: `\r` frames made visible, so overwritten frames can be counted. */
export function rawLines(raw: string): string[] {
  // Each `\r` starts a frame that overwrites the line in place: one display line per frame.
  return raw
    .replace(/\r/g, "\n⏎")
    .split("\n")
    .filter((line) => line !== "");
}

export function byteSize(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

export function renderDelta(title: string, delta: Delta, maxLines = 8, terminalCols = 100): string {
  // "   " + left + " ┊ " + right must fit the terminal.
  const width = Math.max(16, Math.min(COLUMN, Math.floor((terminalCols - 7) / 2)));
  const rows = delta.rows.map((row) => `${String(row.line - delta.screen.top).padStart(3)} │ ${row.text}`);
  const raw = rawLines(delta.raw);
  const rowsBytes = delta.rows.reduce((sum, row) => sum + byteSize(row.text), 0);
  const flags = [
    delta.first ? "first read: the visible screen" : "",
    delta.screen.alternate ? "alternate screen" : "",
    delta.missed ? `missed (${delta.reason ?? "?"})` : "",
    delta.closed ? "closed" : "",
  ].filter(Boolean);
  const out = [
    `── capture_since ${delta.paneId} · ${title}${flags.length ? ` · ${flags.join(" · ")}` : ""}`,
    `   ${fit(`rows: ${delta.rows.length} changed, ${rowsBytes} B`, width)}   raw: ${delta.rawBytes} B printed, ${byteSize(delta.raw)} B of text`,
  ];
  const height = Math.min(maxLines, Math.max(rows.length, raw.length));
  for (let i = 0; i < height; i++) {
    const left = rows[i] ?? "";
    const right = raw.length > height && i === height - 1 ? `… ${raw.length - i} more lines` : (raw[i] ?? "");
    out.push(`   ${fit(left, width)} ┊ ${fit(right, width)}`);
  }
  if (rows.length > height) out.push(`   … ${rows.length - height} more rows`);
  return out.join("\n");
}
