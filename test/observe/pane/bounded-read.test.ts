// A read with limits reads out only the changed rows its limits can keep (rows.ts, RowBound): its
// answer must be exactly the answer made from every changed row, over random streams, cursors and
// limits, rows, truncation counts and the text view's patch (history cut, offscreen) alike.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";
import { newsAnswer, type News, type Standing } from "../../../src/observe/pane/answer.js";
import type { Frame } from "../../../src/observe/pane/frames.js";
import { RowTracker } from "../../../src/observe/pane/rows.js";
import { initialStripState, stripEscapes } from "../../../src/observe/raw/strip.js";
import type { ReadLimits } from "../../../src/observe/read/delta.js";

/** What programs print: logs longer than the scrollback, blank runs, rewrites, wide text, the alternate screen. */
const PIECES = [
  Array.from({ length: 40 }, (_, i) => `log line ${i} ${"=".repeat(i % 13)}`).join("\r\n") + "\r\n",
  "short\r\n",
  "\r\n\r\n\r\n\r\n\r\n\r\n",
  "漢字の行\r\n",
  "\x1b[2A\x1b[2Krewritten\x1b[2B\r",
  "\rprogress 10%\rprogress 90%",
  "\x1b[H\x1b[2J",
  "\x1b[?1049h\x1b[Hfull screen\r\nmenu",
  "\x1b[?1049l",
  "no newline ",
];

/** One pane's screen and tracker, with the frame and the raw output at every look. */
class Pane {
  readonly screen = new Screen({ cols: 24, rows: 5, scrollback: 30 });
  readonly tracker = new RowTracker();
  readonly frames = new Map<number, Frame>();
  readonly rawAt = new Map<number, number>();
  seq = 0;
  raw = "";

  constructor() {
    this.look();
  }

  async write(chunk: string): Promise<void> {
    this.raw += stripEscapes(Buffer.from(chunk), initialStripState).text;
    this.screen.write(chunk, () => this.look());
    await this.screen.flush();
  }

  /** The answer to a reader at `seq`, its rows read all or bounded by the limits. */
  answer(seq: number, limits: ReadLimits, bounded: boolean): ReturnType<typeof newsAnswer> {
    const everyRow = () => this.tracker.changedSince(seq, this.screen).rows;
    const bound = bounded ? { lines: limits.maxLines, bytes: limits.maxBytes } : undefined;
    const changes = this.tracker.changedSince(seq, this.screen, bound);
    const news: News = {
      rows: changes.rows,
      above: changes.above,
      scrolledPast: changes.scrolledPast,
      everyRow,
      raw: this.raw.slice(this.rawAt.get(seq) ?? 0),
      rawBytes: 0,
      missed: undefined,
      missedBytes: 0,
      healed: undefined,
      shown: this.frames.get(seq),
    };
    const screen = this.screen;
    const standing: Standing = {
      paneId: "%1",
      cursor: "c",
      screen: { cols: screen.cols, rows: screen.rows, top: screen.top, cursorX: screen.cursorX, cursorY: screen.cursorY, alternate: screen.alternate },
      frame: this.frame(),
      closed: false,
      exit: undefined,
      streaming: true,
    };
    return newsAnswer(standing, news, limits);
  }

  private look(): void {
    this.tracker.update(++this.seq, this.screen);
    this.frames.set(this.seq, this.frame());
    this.rawAt.set(this.seq, this.raw.length);
  }

  private frame(): Frame {
    return { rows: this.tracker.visible, cols: this.screen.cols, alternate: this.screen.alternate };
  }
}

const limitsArb: fc.Arbitrary<ReadLimits> = fc.record(
  {
    maxLines: fc.integer({ min: 0, max: 60 }),
    maxBytes: fc.integer({ min: 0, max: 3000 }),
    prefer: fc.constantFrom("rows" as const, "raw" as const, "both" as const),
  },
  { requiredKeys: [] },
);

describe("a read bounded by its limits", () => {
  it("answers exactly as a read of every changed row, over random streams, cursors and limits", async () => {
    let cut = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(PIECES.length - 1), { minLength: 1, maxLength: 14 }), fc.array(limitsArb, { minLength: 1, maxLength: 4 }), fc.nat(), async (pieces, limitsList, pick) => {
        const pane = new Pane();
        for (const index of pieces) await pane.write(PIECES[index] ?? "");
        const seq = 1 + (pick % pane.seq);
        for (const limits of limitsList) {
          const whole = pane.answer(seq, limits, false);
          const bounded = pane.answer(seq, limits, true);
          expect(bounded).toEqual(whole);
          if (pane.tracker.changedSince(seq, pane.screen, { lines: limits.maxLines, bytes: limits.maxBytes }).above > 0) cut++;
        }
        pane.screen.dispose();
      }),
      { numRuns: 150, seed: 28 },
    );
    // The bound did leave rows unread in many of those reads (else this test proves nothing).
    expect(cut).toBeGreaterThan(50);
  });

  it("a flood read of 16 KiB reads the rows it keeps and counts the rest, those that scrolled past the history too", async () => {
    const pane = new Pane();
    await pane.write(Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\r\n"));
    const limits = { maxBytes: 300 };
    const changes = pane.tracker.changedSince(1, pane.screen, { bytes: 300 });
    expect(changes.above).toBeGreaterThan(0);
    expect(changes.rows.length + changes.above).toBe(pane.tracker.changedSince(1, pane.screen).rows.length);
    const answer = pane.answer(1, limits, true);
    // Every line written: the 35 the emulator holds (30 of scrollback, 5 of screen), and the 165 before them that scrolled past.
    expect(answer.rows.length + answer.truncated.rows).toBe(200);
    expect(answer.patch?.scrolledPast).toBe(165);
    expect(answer.rows.at(-1)).toEqual({ line: 199, text: "line 199" });
    pane.screen.dispose();
  });
});
