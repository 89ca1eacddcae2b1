// Character widths on the tmux in use (../shared/tmux/each runs this once per version): every
// sample of test/support/width-samples.ts, printed at column 0 and after an "x", leaves the same
// cursor and rows in tmux and in the replica, and takes the columns docs/widths.md gives it; where
// the replica cannot agree, both sides show exactly the listed known difference of this version.
import { closeSync, openSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hub } from "../../../src/watch/hub.js";
import { rulesFor, type WidthRules } from "../../../src/observe/width-table.js";
import { measureWidths } from "../../../src/tmux/widths.js";
import { KNOWN_DIFFERENCES, WIDTH_SAMPLES, columnsOf, versionNumber, type Shown, type WidthSample } from "../../support/width-samples.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const MARKER_ROW = 3;

function trimmed(row: string): string {
  return row.replace(/ +$/, "");
}

/** Has the whole write arrived? Its marker row is shown, and the `|` that ends the sample. */
function arrived(rows: readonly string[], marker: string): boolean {
  return rows[MARKER_ROW] === marker && (rows[0]?.includes("|") === true || rows[1]?.includes("|") === true);
}

interface Watched {
  test: TestServer;
  hub: Hub;
  version: string;
  /** Clears the screen, prints `prefix + text + "|"`, and reads both sides once it has arrived. */
  show(prefix: string, text: string): Promise<{ tmux: Shown; replica: Shown }>;
  close(): void;
}

/** A private server whose pane is watched from its first byte; we write to the pane's terminal. */
async function watched(setup: string[][] = []): Promise<Watched> {
  const test = await startServer({ cols: 40, rows: 6, command: "exec sleep 86400" });
  for (const command of setup) await test.run(command);
  const [line = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id} #{pane_tty} #{version}"]);
  const [pane = "", path = "", version = ""] = line.split(" ");
  const hub = new Hub({ server: test.server, key: randomBytes(32) });
  const observer = await hub.observer(pane);
  // What a program writes to its terminal, tmux reads as the pane's output.
  const tty = openSync(path, "w");
  let shows = 0;
  const show = async (prefix: string, text: string): Promise<{ tmux: Shown; replica: Shown }> => {
    const marker = `#${++shows}`;
    writeSync(tty, `\x1b[H\x1b[2J\x1b[${MARKER_ROW + 1};1H${marker}\x1b[H${prefix}${text}|`);
    let tmux: Shown = { x: -1, y: -1, rows: ["", ""] };
    await waitFor(async () => {
      // One tmux invocation: the rows and the cursor are of the same moment.
      const out = await test.server.runMany([
        ["capture-pane", "-p", "-t", pane],
        ["display-message", "-p", "-t", pane, "#{cursor_x} #{cursor_y}"],
      ]);
      const [x = "", y = ""] = (out.pop() ?? "").split(" ");
      const rows = out.map(trimmed);
      tmux = { x: Number(x), y: Number(y), rows: [rows[0] ?? "", rows[1] ?? ""] };
      return arrived(rows, marker);
    }, 10_000, `tmux to show ${marker}`);
    let replica: Shown = { x: -1, y: -1, rows: ["", ""] };
    await waitFor(async () => {
      const { rows, screen } = await observer.screenText();
      replica = { x: screen.cursorX, y: screen.cursorY, rows: [trimmed(rows[0] ?? ""), trimmed(rows[1] ?? "")] };
      return arrived(rows.map(trimmed), marker);
    }, 10_000, `the replica to show ${marker}`);
    return { tmux, replica };
  };
  return { test, hub, version, show, close: () => closeSync(tty) };
}

const opened: Watched[] = [];
afterAll(async () => {
  for (const w of opened.splice(0)) {
    w.close();
    await w.hub.close();
  }
  await killAllServers();
});

describe("character widths follow the tmux in use", () => {
  let w: Watched;
  let rules: WidthRules;

  beforeAll(async () => {
    w = await watched();
    opened.push(w);
    rules = rulesFor(w.version);
  });

  function known(sample: WidthSample, at: "start" | "after x") {
    const n = versionNumber(w.version);
    return KNOWN_DIFFERENCES.find((d) => d.sample === sample.name && d.at === at && n >= d.from && n <= d.to);
  }

  it.each(WIDTH_SAMPLES.map((s) => [s.name, s] as const))("%s: tmux and the replica agree, or differ exactly as listed", async (_name, sample) => {
    for (const at of ["start", "after x"] as const) {
      const seen = await w.show(at === "start" ? "" : "x", sample.text);
      const listed = known(sample, at);
      if (listed) {
        expect({ at, ...seen }).toEqual({ at, tmux: listed.tmux, replica: listed.replica });
        continue;
      }
      expect({ at, replica: seen.replica }).toEqual({ at, replica: seen.tmux });
      // The documented columns: after "x", the sample, then "|".
      if (at === "after x") expect({ columns: seen.tmux.x - 2 }).toEqual({ columns: columnsOf(sample, rules) });
    }
  });

  it("every known difference names a sample", () => {
    const names = new Set(WIDTH_SAMPLES.map((s) => s.name));
    expect(KNOWN_DIFFERENCES.filter((d) => !names.has(d.sample))).toEqual([]);
  });

  it("measuring characters tmux cannot print leaves the server answering (#{w:} would hang tmux 3.3a)", async () => {
    // Unassigned code points: glibc's wcwidth() is -1. tmux 3.3a drops such a character (0 columns);
    // 3.2a assumes 1, and 3.4+ makes everything but C1 controls 1.
    const widths = await measureWidths((argv) => w.test.run([...argv]), ["\u{1faff}", "\u{e0080}", "日\u{1faff}"]);
    expect(widths).toEqual(rules === "3.3" ? [0, 0, 2] : [1, 1, 3]);
    expect(await w.test.run(["display-message", "-p", "still here"])).toEqual(["still here"]);
  });

  it("measures thousands of characters in one-shot commands that each fit tmux's message limit", async () => {
    const texts = [...Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i)), ...Array.from({ length: 80 }, (_, i) => String.fromCodePoint(0x1f600 + i))];
    const widths = await measureWidths((argv) => w.test.run([...argv]), texts);
    expect(widths).toEqual(texts.map(() => 2));
  });
});

describe("a user's codepoint-widths (tmux 3.6+)", () => {
  it("is followed by the replica: learned where probed (❤ 🙂), read from the option elsewhere (一)", async (ctx) => {
    // -q: tmux before 3.6 has no such option, and says nothing.
    const v = await watched([
      ["set-option", "-gq", "codepoint-widths", "U+2764=2"],
      ["set-option", "-agq", "codepoint-widths", "U+1F642=1"],
      ["set-option", "-agq", "codepoint-widths", "U+4E00=1"],
    ]);
    opened.push(v);
    if (versionNumber(v.version) < 306) ctx.skip();
    const seen = await v.show("x", "\u2764\u{1f642}\u4e00");
    expect(seen.replica).toEqual(seen.tmux);
    expect(seen.tmux.x).toBe(6);
  });
});
