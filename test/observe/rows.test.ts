// Row tracking: which absolute lines changed between two looks.
import { describe, expect, it } from "vitest";
import { RowTracker, type LineSource } from "../../src/observe/rows.js";
import { Screen } from "../../src/observe/screen.js";

class Watched {
  readonly screen: Screen;
  readonly tracker = new RowTracker();
  seq = 0;

  constructor(cols = 30, rows = 5, scrollback = 100) {
    this.screen = new Screen({ cols, rows, scrollback });
    this.tracker.update(++this.seq, this.screen);
  }

  /** Writes data, looking after every chunk (as the observer does when the emulator catches up). */
  async write(...chunks: string[]): Promise<void> {
    for (const chunk of chunks) this.screen.write(chunk, () => this.tracker.update(++this.seq, this.screen));
    await this.screen.flush();
  }

  changedSince(seq: number) {
    return this.tracker.changedSince(seq, this.screen);
  }
}

describe("RowTracker", () => {
  it("a progress bar redrawn 100 times between two reads is one changed row", async () => {
    const w = new Watched();
    await w.write("building\r\n");
    const mark = w.seq;
    const frames = Array.from({ length: 100 }, (_, i) => `\r[${"#".repeat(Math.floor((i + 1) / 10)).padEnd(10)}] ${i + 1}%`);
    await w.write(...frames);
    expect(w.changedSince(mark).rows).toEqual([{ line: 1, text: "[##########] 100%" }]);
  });

  it("a log that scrolled 30 lines is those 30 lines, not the screen again", async () => {
    const w = new Watched();
    await w.write("$ tail -f log\r\n");
    const mark = w.seq;
    await w.write(...Array.from({ length: 30 }, (_, i) => `entry ${i}\r\n`));
    const { rows, lostLines } = w.changedSince(mark);
    expect(rows.map((r) => r.text)).toEqual(Array.from({ length: 30 }, (_, i) => `entry ${i}`));
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(lostLines).toBe(0);
  });

  it("a log written in one chunk that scrolled past the screen still reports every line", async () => {
    const w = new Watched(30, 5, 100);
    const mark = w.seq;
    await w.write(Array.from({ length: 50 }, (_, i) => `entry ${i}`).join("\r\n"));
    expect(w.changedSince(mark).rows.map((r) => r.text)).toEqual(Array.from({ length: 50 }, (_, i) => `entry ${i}`));
  });

  it("lines that scrolled through unseen are reported if they hold text, blank ones are not", async () => {
    const w = new Watched(30, 5, 100);
    const mark = w.seq;
    await w.write(["one", "", "two", "", "", "three"].join("\r\n") + "\r\n".repeat(6) + "end");
    expect(w.changedSince(mark).rows.map((r) => r.text)).toEqual(["one", "two", "three", "end"]);
  });

  it("lines that scrolled out of the emulator before anyone looked are counted as lost", async () => {
    const w = new Watched(30, 5, 10);
    const mark = w.seq;
    await w.write(Array.from({ length: 100 }, (_, i) => `entry ${i}`).join("\r\n"));
    const { rows, lostLines } = w.changedSince(mark);
    expect(rows.map((r) => r.text)).toEqual(Array.from({ length: 15 }, (_, i) => `entry ${85 + i}`));
    expect(lostLines).toBe(85);
  });

  it("entering and leaving the alternate screen reports the whole new screen", async () => {
    const w = new Watched(30, 3);
    await w.write("a\r\nb\r\nc");
    let mark = w.seq;
    await w.write("\x1b[?1049h\x1b[H\x1b[2J~\r\n~\r\n~");
    expect(w.changedSince(mark).rows.map((r) => r.text)).toEqual(["~", "~", "~"]);
    mark = w.seq;
    await w.write("\x1b[?1049l");
    expect(w.changedSince(mark).rows.map((r) => r.text)).toEqual(["a", "b", "c"]);
  });

  it("a row rewritten above the terminal cursor is reported", async () => {
    const w = new Watched(30, 5);
    await w.write("layer 1: waiting\r\nlayer 2: waiting\r\nlayer 3: waiting\r\n");
    const mark = w.seq;
    await w.write("\x1b[3A\x1b[2Klayer 1: done\x1b[3B\r");
    expect(w.changedSince(mark).rows).toEqual([{ line: 0, text: "layer 1: done" }]);
  });

  it("a row that is cleared is reported with empty text, new blank rows are not", async () => {
    const w = new Watched(30, 5);
    await w.write("one\r\ntwo");
    const mark = w.seq;
    await w.write("\x1b[2K\r\n\r\n");
    expect(w.changedSince(mark).rows).toEqual([{ line: 1, text: "" }]);
  });

  it("after invalidate the next look reports every visible row", async () => {
    const w = new Watched(10, 2);
    await w.write("x\r\ny");
    const mark = w.seq;
    w.tracker.invalidate();
    w.tracker.update(++w.seq, w.screen);
    expect(w.changedSince(mark).rows.map((r) => r.text)).toEqual(["x", "y"]);
  });

  it("works on any line source, not only a terminal", () => {
    const texts = new Map<number, string>([[0, "a"], [1, "b"]]);
    const source: LineSource = {
      top: 0,
      rows: 2,
      firstLine: 0,
      alternate: false,
      rowText: (y) => texts.get(y) ?? "",
      lineText: (line) => texts.get(line),
    };
    const tracker = new RowTracker();
    tracker.update(1, source);
    texts.set(1, "B");
    tracker.update(2, source);
    expect(tracker.changedSince(1, source).rows).toEqual([{ line: 1, text: "B" }]);
    expect(tracker.changedSince(0, source).rows).toEqual([{ line: 0, text: "a" }, { line: 1, text: "B" }]);
  });
});
