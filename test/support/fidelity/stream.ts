// The recorded fidelity data in golden/streams/: NAME.ctl (control-mode lines exactly as tmux sent
// them, kept only for the recorded pane) and NAME.screen.json (tmux's own view at the end).
// Pure helpers plus the two file reads/writes; the recorder and the replay test share them.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScreenSnapshot } from "../../../src/observe/snapshot.js";
import { parseLayout } from "../../../src/tmux/layout.js";

export const STREAMS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "golden", "streams");
export const SCREEN_FORMAT = "panescope-fidelity-screen 1";

/** tmux's view at the end of a recording: a screen snapshot without styles, plus its provenance. */
export interface RecordedScreen extends Omit<ScreenSnapshot, "styles" | "cursorVisible"> {
  format: string;
  name: string;
  /** `tmux -V` and the pane's TERM when it was recorded. */
  tmux: string;
  term: string;
  paneId: string;
  /** The pane's size at its start, then after every %layout-change that changed it. */
  sizes: Array<{ cols: number; rows: number }>;
}

export interface Recording {
  name: string;
  ctl: Uint8Array;
  screen: RecordedScreen;
}

const NL = 0x0a;

function startsWith(line: Uint8Array, prefix: string): boolean {
  if (line.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/**
 * The lines of a raw control stream that matter for one pane, in order and byte for byte:
 * its %output / %extended-output and every %layout-change whose layout contains it.
 */
export function paneLines(stream: Uint8Array, paneId: string): Uint8Array[] {
  const kept: Uint8Array[] = [];
  let start = 0;
  while (start < stream.length) {
    let end = stream.indexOf(NL, start);
    if (end === -1) end = stream.length;
    const line = stream.subarray(start, end);
    start = end + 1;
    if (startsWith(line, `%output ${paneId} `) || startsWith(line, `%extended-output ${paneId} `)) kept.push(line);
    else if (startsWith(line, "%layout-change ")) {
      const layout = Buffer.from(line).toString("latin1").split(" ")[2] ?? "";
      if (parseLayout(layout)?.some((pane) => pane.paneId === paneId)) kept.push(line);
    }
  }
  return kept;
}

/** Lines back into one stream, each ended by "\n" as tmux ends them. */
export function joinLines(lines: Uint8Array[]): Uint8Array {
  return Buffer.concat(lines.flatMap((line) => [line, Uint8Array.of(NL)]));
}

/** Deterministic JSON: fixed key order, two-space indent, final newline. */
export function formatScreen(screen: RecordedScreen): string {
  const ordered: RecordedScreen = {
    format: screen.format,
    name: screen.name,
    tmux: screen.tmux,
    term: screen.term,
    paneId: screen.paneId,
    sizes: screen.sizes.map(({ cols, rows }) => ({ cols, rows })),
    cols: screen.cols,
    rows: screen.rows,
    cursorX: screen.cursorX,
    cursorY: screen.cursorY,
    alternate: screen.alternate,
    lines: screen.lines,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function writeRecording(recording: Recording, dir = STREAMS_DIR): void {
  writeFileSync(join(dir, `${recording.name}.ctl`), recording.ctl);
  writeFileSync(join(dir, `${recording.name}.screen.json`), formatScreen(recording.screen));
}

/** Every recording in the directory, by name. */
export function loadRecordings(dir = STREAMS_DIR): Recording[] {
  const names = readdirSync(dir).filter((f) => f.endsWith(".ctl")).map((f) => f.slice(0, -4)).sort();
  return names.map((name) => {
    const screen = JSON.parse(readFileSync(join(dir, `${name}.screen.json`), "utf8")) as RecordedScreen;
    if (screen.format !== SCREEN_FORMAT) throw new Error(`${name}.screen.json: format ${JSON.stringify(screen.format)}, expected ${SCREEN_FORMAT}`);
    return { name, ctl: new Uint8Array(readFileSync(join(dir, `${name}.ctl`))), screen };
  });
}
