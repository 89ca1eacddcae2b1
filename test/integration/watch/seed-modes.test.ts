// Modes a program set before panescope's first read: the seed recovers what tmux reports, so the
// program's next bytes draw the same rows in the replica as in tmux, at once — not after the replica
// audit heals them. One case per mode: the program sets it, panescope starts watching, the program
// prints something whose rendering depends on it; the replica's rows right after equal tmux's
// capture, with no heal then or at the next audit.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sameRow } from "../../../src/observe/differences.js";
import { Hub } from "../../../src/watch/hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ESC = "\x1b";
const CSI = `${ESC}[`;

interface ModeCase {
  /** What the program set before panescope watched. */
  before: string;
  /** What it prints after: drawn differently when the mode is lost. */
  after: string;
  cols?: number;
  rows?: number;
  /**
   * The rows, where tmux 3.6+'s capture cannot say them: it keeps a tab as one "\t" however wide
   * its cell is (CSI P moves the cell, not its width). Checked against the capture with each tab as
   * one or more blanks.
   */
  rowsWithTabs?: string[];
}

/** Rows of dots: a tab over them only moves the cursor, so no tmux version prints a tab in a capture. */
const dots = (n: number): string => Array.from({ length: n }, () => ".".repeat(30)).join("\r\n");

export const MODE_CASES: Record<string, ModeCase> = {
  "a scroll region": { before: `${CSI}2;4r${CSI}4;1H`, after: "a\nb\nc\nd" },
  "origin mode with a scroll region": { before: `${CSI}3;5r${CSI}?6h`, after: `${CSI}1;1HX${CSI}2;4HY${CSI}9;9HZ` },
  "autowrap off": { before: `${CSI}?7l`, after: `\r${"w".repeat(45)}!` },
  "insert mode": { before: `world\r${CSI}4h`, after: "hi " },
  "tab stops set by the program": { before: `${dots(3)}${CSI}3g${CSI}1;5H${ESC}H${CSI}1;13H${ESC}H${CSI}3;1H`, after: "\ra\tb\tc\r\n" },
  "tab stops all cleared": { before: `${dots(3)}${CSI}3g${CSI}3;1H`, after: "\ra\tb" },
  "a scroll region in the alternate screen": { before: `${CSI}?1049h${CSI}2;4r${CSI}4;1H`, after: "a\nb\nc\nd" },
  "origin mode in the alternate screen": { before: `${CSI}?1049h${CSI}3;5r${CSI}?6h`, after: `${CSI}1;1HX${CSI}2;4HY${CSI}9;9HZ` },
  "autowrap off in the alternate screen": { before: `${CSI}?1049h${CSI}?7l`, after: `\r${"w".repeat(45)}!` },
  "insert mode in the alternate screen": { before: `${CSI}?1049hworld\r${CSI}4h`, after: "hi " },
  "tab stops set, then the alternate screen": {
    before: `${dots(3)}${CSI}3g${CSI}1;5H${ESC}H${CSI}1;13H${ESC}H${CSI}?1049h${dots(3)}${CSI}3;1H`,
    after: "\ra\tb\tc",
  },
  "a scroll region set in the alternate screen, then the alternate screen left": {
    before: `${CSI}?1049h${CSI}2;4r`,
    after: `${CSI}?1049l${CSI}4;1Ha\nb\nc\nd`,
  },
  "a scroll region set in the alternate screen after the watch began, then left": { before: "", after: `${CSI}?1049h${CSI}2;4r${CSI}?1049l${CSI}4;1Ha\nb\nc\nd` },
  "tab stops set after the watch began, then the alternate screen": { before: "", after: `${CSI}3g${CSI}5G${ESC}H${CSI}?1049h${dots(2)}\ra\tb` },
  "the alternate screen left after the watch began": { before: `normal${CSI}2;3H${CSI}?1049hin alt`, after: `${CSI}?1049lX` },
  // tmux restores no cursor on 1049l when none was saved (alternate_saved_x is UINT_MAX); xterm restores its saved slot.
  "the alternate screen entered without saving the cursor (1047), left with 1049": {
    before: `normal${CSI}2;3H${CSI}?1047hin alt${CSI}5;5H`,
    after: `${CSI}?1049lX`,
  },
  "the alternate screen entered with 1047 after the watch began, left with 1049": { before: `normal${CSI}2;3H`, after: `${CSI}?1047hin alt${CSI}5;5H${CSI}?1049lX` },
  "backspace at the first column of a wrapped line": { before: "", after: `${"0".repeat(45)}${"\b".repeat(7)}X` },
  "a full last column (the next character wraps)": { before: `${"x".repeat(40)}`, after: "Y" },
  // tmux 3.6+ turns a tab over blank cells into one tab cell, captured as "\t".
  "tabs over blank cells before the watch, with stops the program set": {
    before: `${CSI}3g${CSI}5G${ESC}H${CSI}13G${ESC}H\ra\tb\tc\r\n`,
    after: "x\ty\r\n",
  },
  "tabs over blank cells after the watch, with stops the program set": { before: `${CSI}3g${CSI}5G${ESC}H${CSI}13G${ESC}H\r`, after: "a\tb\tc\r\n" },
  "line drawing (DEC graphics) on the screen before the watch": { before: `${ESC}(0lqqk${ESC}(B ok\r\n`, after: "next" },
  // capture-pane -e marks these cells with SO … SI; the audit once compared those bytes as text and healed every frame.
  "line drawing printed after the watch began": { before: "", after: `${ESC}(0lqqk${ESC}(B ok\r\n${ESC})0\x0elqk\x0f` },
  "a tab cell moved left by CSI P": { before: "", after: `a\tb\r${CSI}P`, rowsWithTabs: ["       b", "", "", "", "", "", "", ""] },
  // tmux 3.6+ captures "\tY      c": the tab cell stays, its width no longer says where Y is.
  "text inserted into a tab cell (CSI @)": { before: "", after: `\tc\r${CSI}2C${CSI}@Y`, rowsWithTabs: ["  Y      c", "", "", "", "", "", "", ""] },
};

/**
 * What tmux does not report, so no seed can know it (docs/faults.md): the replica draws the next
 * bytes differently, and the audit at rest heals it — one heal, then the screens agree.
 */
export const LIMIT_CASES: Record<string, ModeCase> = {
  "the saved cursor (DECSC)": { before: `${CSI}3;5H${ESC}7${CSI}1;1H`, after: `${ESC}8X` },
  "the G0 character set (DEC line drawing)": { before: `${ESC}(0`, after: "lqqk" },
  "the G1 character set, shifted in (SO)": { before: `${ESC})0\x0e`, after: "lqqk" },
};

/** The pane's program: `before`, then (when the watch has begun) `after`; each ends by setting the title. */
function paneCommand(c: ModeCase): string {
  const dir = mkdtempSync(join(tmpdir(), "panescope-modes-"));
  dirs.push(dir);
  writeFileSync(join(dir, "before"), `${c.before}${ESC}]2;before-done\x07`);
  writeFileSync(join(dir, "after"), `${c.after}${ESC}]2;after-done\x07`);
  // `start` once the pane has its size: tmux 3.2 starts a session at 80x23 and the fixture resizes it,
  // which moves a saved cursor tmux keeps for the alternate screen.
  return `cd ${dir} && tmux wait-for start && cat before && tmux wait-for go && cat after && exec sleep 600`;
}

async function title(test: TestServer, pane: string): Promise<string> {
  const [line = ""] = await test.run(["display-message", "-p", "-t", pane, "#{pane_title}"]);
  return line;
}

/** The DEC line-drawing letters the cases use. */
const LINES: Record<string, string> = { l: "┌", q: "─", k: "┐" };

/** A tab kept by tmux 3.6+ in a capture, expanded to the pane's stops (ASCII rows only). */
function expandTabs(row: string, stops: number[], cols: number): string {
  let out = "";
  for (const char of row) {
    if (char !== "\t") out += char;
    else out = out.padEnd(stops.find((stop) => stop > out.length) ?? cols - 1);
  }
  return out;
}

/** tmux's screen, blanks trimmed, and its cursor, in one tmux call. */
async function tmuxView(test: TestServer, pane: string): Promise<{ rows: string[]; cursor: string }> {
  const out = await test.server.runMany([
    // -e: line-drawing cells come between SO and SI (plain -p prints their ASCII letters).
    ["capture-pane", "-p", "-e", "-t", pane],
    ["display-message", "-p", "-t", pane, "#{cursor_x},#{cursor_y},#{pane_width},#{pane_tabs}"],
  ]);
  const [x, y, width, ...stops] = (out.pop() ?? "").split(",");
  const tabs = stops.filter((stop) => stop !== "").map(Number);
  const drawn = (row: string): string => row.replace(/\x1b\[[0-9;:]*m/g, "").replace(/\x0e([^\x0f]*)\x0f?/g, (_, cells: string) => cells.replace(/[lqk]/g, (c) => LINES[c] ?? c));
  return { rows: out.map((row) => expandTabs(drawn(row), tabs, Number(width)).trimEnd()), cursor: `${x},${y}` };
}

interface Watched {
  test: TestServer;
  pane: string;
  hub: Hub;
  /** The replica's rows and cursor once every byte of `after` is in, and tmux's then. */
  ours: { rows: string[]; cursor: string };
  tmux: { rows: string[]; cursor: string };
  /** Heals when the rows were compared. */
  heals: number;
  watched(): { heals: number; audits: number };
  /** Audits before the output. */
  audits: number;
}

/** The program sets its modes, panescope takes its first read, the program prints `after`. */
async function watchAcross(c: ModeCase): Promise<Watched> {
  const test = await startServer({ cols: c.cols ?? 40, rows: c.rows ?? 8, command: paneCommand(c) });
  const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  await test.run(["wait-for", "-S", "start"]);
  await waitFor(async () => (await title(test, pane)) === "before-done", 5000, "the program to set its modes");
  const hub = new Hub({ server: test.server, key: randomBytes(32) });
  hubs.push(hub);
  await hub.capture({ paneId: pane });
  const observer = await hub.observer(pane);
  const watched = (): { heals: number; audits: number } => ({
    heals: hub.watching.find((w) => w.paneId === pane)?.heals ?? -1,
    audits: hub.auditStats(pane)?.audits ?? -1,
  });
  // Audits counted from before the output: the one after it may run before the comparison below.
  const audits = watched().audits;
  await test.run(["wait-for", "-S", "go"]);
  await waitFor(async () => (await title(test, pane)) === "after-done", 5000, "the program to print");
  const afterBytes = Buffer.byteLength(`${c.after}${ESC}]2;after-done\x07`);
  await waitFor(() => observer.offset >= afterBytes, 5000, "the output to reach the replica");
  const shown = await observer.screenText();
  const tmux = await tmuxView(test, pane);
  const heals = watched().heals;
  return { test, pane, hub, ours: { rows: shown.rows, cursor: `${shown.screen.cursorX},${shown.screen.cursorY}` }, tmux, heals, watched, audits };
}

describe("modes set before the first read", () => {
  for (const [name, c] of Object.entries(MODE_CASES)) {
    it(`${name}: the rows after it equal tmux's at once, with no heal`, { timeout: 30_000 }, async () => {
      const { test, pane, ours, tmux, heals, watched, audits } = await watchAcross(c);
      if (c.rowsWithTabs) {
        const captured = await test.run(["capture-pane", "-p", "-t", pane]);
        expect(c.rowsWithTabs.every((row, y) => sameRow(row, (captured[y] ?? "").trimEnd()))).toBe(true);
        tmux.rows = c.rowsWithTabs;
      }
      expect(ours).toEqual(tmux);
      expect(heals).toBe(0);
      // The audit at rest after the output finds nothing to heal either.
      await waitFor(() => watched().audits > audits, 10_000, "an audit after the output");
      expect(watched().heals).toBe(0);
    });
  }
});

describe("what tmux does not report", () => {
  for (const [name, c] of Object.entries(LIMIT_CASES)) {
    it(`${name}: drawn differently at first, one heal makes the replica tmux's`, { timeout: 30_000 }, async () => {
      const { test, pane, hub, ours, tmux, watched, audits } = await watchAcross(c);
      if (JSON.stringify(ours) === JSON.stringify(tmux)) {
        // tmux 3.2a draws SO with G1 set to line drawing as plain letters, as the replica does.
        await waitFor(() => watched().audits > audits, 10_000, "an audit after the output");
        expect(watched().heals).toBe(0);
        return;
      }
      await waitFor(() => watched().heals > 0, 10_000, "a heal");
      const healed = await (await hub.observer(pane)).screenText();
      expect({ rows: healed.rows, cursor: `${healed.screen.cursorX},${healed.screen.cursorY}` }).toEqual(await tmuxView(test, pane));
      expect(watched().heals).toBe(1);
    });
  }
});
