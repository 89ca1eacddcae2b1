// Row tracking: which absolute lines changed between two looks.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RowTracker, type LineSource } from "../../../src/observe/pane/rows.js";
import { Screen } from "../../../src/observe/emulator/screen.js";

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
    expect(w.changedSince(mark).scrolledPast).toBe(85);
  });

  it("changed lines that scrolled past the history between two reads are counted, not listed", async () => {
    const w = new Watched(30, 5, 10);
    const mark = w.seq;
    await w.write(...Array.from({ length: 100 }, (_, i) => `entry ${i}\r\n`));
    const { rows, lostLines, scrolledPast } = w.changedSince(mark);
    // The emulator holds 15 lines: the last 14 entries and the blank cursor row.
    expect(rows.map((r) => r.text)).toEqual(Array.from({ length: 14 }, (_, i) => `entry ${86 + i}`));
    expect(scrolledPast).toBe(86);
    expect(lostLines).toBe(0);
  });

  it("a later cursor counts only the lines that changed after it among those that scrolled past", async () => {
    const w = new Watched(30, 5, 10);
    await w.write(...Array.from({ length: 50 }, (_, i) => `entry ${i}\r\n`));
    const mark = w.seq;
    await w.write(...Array.from({ length: 50 }, (_, i) => `entry ${50 + i}\r\n`));
    const { rows, scrolledPast } = w.changedSince(mark);
    expect(rows.map((r) => r.text)).toEqual(Array.from({ length: 14 }, (_, i) => `entry ${86 + i}`));
    expect(scrolledPast).toBe(36);
  });

  it("history a program erased (clear's CSI 3J) did not scroll past: it is not counted", async () => {
    const w = new Watched(30, 5, 10);
    const mark = w.seq;
    await w.write(...Array.from({ length: 12 }, (_, i) => `entry ${i}\r\n`), "\x1b[3J");
    const { rows, scrolledPast } = w.changedSince(mark);
    expect(rows.map((r) => r.text)).toEqual(["entry 8", "entry 9", "entry 10", "entry 11"]);
    expect(scrolledPast).toBe(0);
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

/** The screen as a source without lookAtRows: the tracker then reads every row on every update. */
function everyRow(screen: Screen): LineSource {
  return {
    get top() {
      return screen.top;
    },
    get rows() {
      return screen.rows;
    },
    get firstLine() {
      return screen.firstLine;
    },
    get passed() {
      return screen.passed;
    },
    get erased() {
      return screen.erased;
    },
    get alternate() {
      return screen.alternate;
    },
    rowText: (y) => screen.rowText(y),
    lineText: (line) => screen.lineText(line),
  };
}

const RESIZE = "(resize)";

describe("RowTracker with the rows xterm marked (lookAtRows)", () => {
  // Everything that moves or rewrites rows: printing, wraps, cursor moves, erases, inserted and
  // deleted lines and characters, scroll regions and scrolls, the alternate screen, resets.
  const pieces = [
    "text", "wide 世界", "x", "\r\n", "\n", "\r", "\b", "\t", "\x1b[H", "\x1b[3;2H", "\x1b[A", "\x1b[2B", "\x1b[5C",
    "\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[1J", "\x1b[2J", "\x1b[3J", "\x1b[L", "\x1b[2M", "\x1b[3@", "\x1b[P", "\x1b[2X",
    "\x1b[2;4r", "\x1b[r", "\x1b[S", "\x1b[2T", "\x1bM", "\x1bD", "\x1bE", "\x1b[?1049h", "\x1b[?1049l", "\x1bc", "\x1b#8",
    "\x1b[?7l", "\x1b[?7h", "\x1b[4h", "\x1b[4l", "\x1b[10;1H", "a".repeat(25), RESIZE,
  ];
  it("finds the same changes as reading every row, over random streams in random chunks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 60 }), fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), async (stream, looks) => {
        const screen = new Screen({ cols: 12, rows: 5, scrollback: 6 });
        const marked = new RowTracker();
        const full = new RowTracker();
        let seq = 0;
        const update = (): void => {
          seq++;
          expect(marked.update(seq, screen)).toBe(full.update(seq, everyRow(screen)));
          expect(marked.visible).toEqual(full.visible);
        };
        update();
        stream.forEach((piece, i) => {
          if (piece !== RESIZE) return screen.write(piece, looks[i] ? update : undefined);
          // As the observer resizes: in stream order, then every row is read again.
          screen.write("", () => {
            screen.resize(screen.cols === 12 ? 9 : 12, screen.rows === 5 ? 4 : 5);
            marked.invalidate();
            full.invalidate();
            update();
          });
        });
        screen.write("", update);
        await screen.flush();
        for (const since of [0, Math.floor(seq / 2), seq - 1]) expect(marked.changedSince(since, screen)).toEqual(full.changedSince(since, everyRow(screen)));
      }),
      { numRuns: Number(process.env.RUNS ?? 400) },
    );
  });

  it("a walk from the lowest line marked after a sequence finds what a walk over every line does", async () => {
    // stampedSince(-1) walks every line tracked, with its stamp: the lines changed after any later
    // sequence are those of its lines stamped after it. Hundreds of looks, so the marks the tracker
    // keeps (its last 64 sequences) are let go and old sequences walk everything again; mostly text
    // and line feeds, so history holds lines marked before them.
    const scrolling = [...pieces.filter((piece) => piece !== RESIZE), ...Array<string>(30).fill("\r\n"), ...Array<string>(20).fill("text")];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...scrolling), { minLength: 150, maxLength: 300 }), async (stream) => {
        // History long enough to hold lines marked before the last 64 sequences.
        const screen = new Screen({ cols: 12, rows: 5, scrollback: 500 });
        const tracker = new RowTracker();
        let seq = 0;
        for (const piece of stream) screen.write(piece, () => tracker.update(++seq, screen));
        await screen.flush();
        const every = tracker.stampedSince(-1, screen);
        const lines = [...every.rows.lines];
        const texts = every.rows.text.split("\n");
        for (let since = 0; since <= seq; since++) {
          const after = lines.flatMap((line, i) => ((every.rows.stamps[i] as number) > since ? [{ line, text: texts[i] }] : []));
          expect(tracker.changedSince(since, screen).rows).toEqual(after);
          const stamped = tracker.stampedSince(since, screen);
          expect([...stamped.rows.lines]).toEqual(after.map((row) => row.line));
          expect(stamped.firstLine).toBe(every.firstLine);
        }
      }),
      { numRuns: Number(process.env.RUNS ?? 40) },
    );
  });
});
