// tmux's own view of a pane as a screen snapshot: capture-pane -e of the visible rows, painted into
// a fresh emulator, so recordings and screenshots can be compared with the ground truth.
import { Screen } from "../../src/observe/emulator/screen.js";
import { tabBytes } from "../../src/observe/emulator/seed.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { cellDifferences, cellsOfSnapshot, type ShownCell } from "./svg-cells.js";
import { waitFor, type TestServer } from "./tmux-fixture.js";

export async function tmuxScreen(test: TestServer, pane: string): Promise<ScreenSnapshot> {
  const [geometry = ""] = await test.run(["display-message", "-p", "-t", pane, "#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{pane_tabs}"]);
  const [cols, rows, cursorX, cursorY] = geometry.split(" ").map(Number) as [number, number, number, number];
  const tabs = (geometry.split(" ")[4] ?? "").split(",").filter((stop) => stop !== "").map(Number);
  const lines = await test.run(["capture-pane", "-p", "-e", "-N", "-t", pane]);
  const screen = new Screen({ cols, rows });
  // tmux 3.6+ captures a tab written over blanks as one "\t": it lands on the pane's own stops.
  if (tabs.length > 0) await new Promise<void>((done) => screen.write(tabBytes(tabs, cols), done));
  // capture-pane -e carries the pen from one line to the next (a row may start with only the
  // colour that changed: htop's selected row is "ESC[46m" after a black-on-green header, 3.3a), so
  // the lines are painted as one stream, never reset between rows, autowrap off.
  const paint = `\x1b[?7l${lines.slice(0, rows).map((line, y) => `\x1b[${y + 1};1H${line}`).join("")}\x1b[0m\x1b[?7h\x1b[${cursorY + 1};${cursorX + 1}H`;
  await new Promise<void>((done) => screen.write(paint, done));
  const snapshot = screen.snapshot();
  screen.dispose();
  return snapshot;
}

/**
 * What two screens must share to look the same: size, cursor, and every cell's text, colours and
 * attributes as a person sees them (a blank's foreground is invisible: xterm keeps the pen's on
 * erased cells, tmux does not, seen with vim's "~" rows and htop's header on 3.3a).
 */
export function picture(s: ScreenSnapshot): { size: string; cursor: string; cells: ShownCell[][] } {
  return { size: `${s.cols}x${s.rows}`, cursor: `${s.cursorX},${s.cursorY}`, cells: cellsOfSnapshot(s) };
}

/** Where two screens look different, briefly. */
export function pictureDifferences(a: ScreenSnapshot, b: ScreenSnapshot): string[] {
  const [pa, pb] = [picture(a), picture(b)];
  const out: string[] = [];
  if (pa.size !== pb.size) out.push(`size ${pa.size} ≠ ${pb.size}`);
  if (pa.cursor !== pb.cursor) out.push(`cursor ${pa.cursor} ≠ ${pb.cursor}`);
  return [...out, ...cellDifferences(pa.cells, pb.cells).slice(0, 20)];
}

/** Waits until tmux shows `text` on the pane's screen. */
export async function shows(test: TestServer, pane: string, text: string): Promise<void> {
  await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).some((l) => l.includes(text)), 15_000, JSON.stringify(text));
}

/** What the tests type into a shell: vim with shell syntax colours, a line with a wide character; a progress bar. */
export const VIM = "vim -Nu NONE -n -i NONE -c 'syntax on' -c 'set ft=sh'\n";
export const VIM_LINE = 'iif [ "$x" = 1 ]; then echo "wide 中文"; fi # note\n';
export const PROGRESS_BAR =
  "i=0; while [ $i -le 20 ]; do printf '\\r\\033[36mfetch\\033[0m [\\033[42m%-20s\\033[0m] %3d%%' \"$(printf '%*s' $i '' | tr ' ' '#')\" $((i*5)); i=$((i+1)); done; printf '\\n\\033[1mdone\\033[0m\\n'\n";

/** Types vim's line (in insert mode) and leaves insert mode. */
export async function vimWithLine(test: TestServer, pane: string): Promise<void> {
  await test.run(["send-keys", "-t", pane, "-l", VIM]);
  await shows(test, pane, "~");
  await test.run(["send-keys", "-t", pane, "-l", VIM_LINE]);
  await test.run(["send-keys", "-t", pane, "Escape"]);
  await shows(test, pane, "# note");
}
