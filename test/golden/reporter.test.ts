// What `panescope golden` prints: a live line on a terminal that follows the running tape's steps
// and is cleared before the result, coloured verdicts and diffs, and the vitest-like summary.
import { describe, expect, it, vi } from "vitest";
import { GoldenReporter, type ReporterIo } from "../../src/golden/reporter.js";
import type { TapeResult } from "../../src/golden/run.js";
import type { ScreenSnapshot } from "../../src/observe/emulator/snapshot.js";
import { decide } from "../../src/golden/store.js";

const screen: ScreenSnapshot = { cols: 2, rows: 1, cursorX: 0, cursorY: 0, cursorVisible: true, alternate: false, lines: ["ab"], styles: [] };

function capture(tty: boolean, colour: boolean): { io: ReporterIo; text: () => string } {
  let text = "";
  return { io: { out: (line) => (text += `${line}\n`), write: (t) => (text += t), tty, colour }, text: () => text };
}

function result(kinds: ("pass" | "new" | "updated" | "fail")[]): TapeResult {
  const snapshots = kinds.map((kind, i) => ({
    name: `s${i}`,
    where: `t.tape:${i + 3}`,
    path: `t/s${i}.golden`,
    screen,
    actual: "",
    decision:
      kind === "pass" ? decide({ expected: "x\n", actual: "x\n", update: false, ci: false }) : kind === "fail" ? decide({ expected: "│one│\n", actual: "│two│\n", update: false, ci: false }) : ({ kind: "written", reason: kind } as const),
  }));
  return { path: "t.tape", snapshots, passed: !kinds.includes("fail"), ms: 1200 };
}

describe("GoldenReporter", () => {
  it("draws the running tape and its step in place on a terminal, and clears it before the result", () => {
    const { io, text } = capture(true, false);
    const reporter = new GoldenReporter(io);
    reporter.start("t.tape");
    reporter.step({ kind: "wait", line: 4, match: { kind: "text", text: "$" }, timeoutMs: 1000 });
    reporter.finish(result(["pass"]));
    expect(text()).toBe("\r\u001b[KRUN  t.tape\r\u001b[KRUN  t.tape  line 4: wait\r\u001b[KPASS t.tape (1 snapshot, 1.2s)\n");
  });

  it("cuts a live line that would wrap on a narrow terminal", () => {
    const { io, text } = capture(true, false);
    const reporter = new GoldenReporter({ ...io, columns: 20 });
    reporter.start("golden/a-long-tape-name.tape");
    expect(text()).toBe("\r\u001b[KRUN  golden/a-long…");
  });

  it("writes no live line when the output is not a terminal", () => {
    const { io, text } = capture(false, false);
    const reporter = new GoldenReporter(io);
    reporter.start("t.tape");
    reporter.finish(result(["pass"]));
    expect(text()).toBe("PASS t.tape (1 snapshot, 1.2s)\n");
  });

  it("says every few seconds which step a long tape is at when the output is not a terminal", () => {
    vi.useFakeTimers();
    try {
      const { io, text } = capture(false, false);
      const reporter = new GoldenReporter(io);
      reporter.start("t.tape");
      vi.advanceTimersByTime(5000);
      reporter.step({ kind: "snapshot", line: 9, name: "menu" });
      vi.advanceTimersByTime(5000);
      reporter.finish(result(["pass"]));
      vi.advanceTimersByTime(20_000);
      expect(text()).toBe("  … t.tape still running (starting)\n  … t.tape still running (line 9: snapshot menu)\nPASS t.tape (1 snapshot, 1.2s)\n");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a stopped run ends the live line with a newline on a terminal, so the shell's prompt starts below it", () => {
    const { io, text } = capture(true, false);
    const reporter = new GoldenReporter(io);
    reporter.start("t.tape");
    reporter.step({ kind: "wait", line: 4, match: { kind: "text", text: "$" }, timeoutMs: 1000 });
    reporter.abandon();
    expect(text()).toBe("\r\u001b[KRUN  t.tape\r\u001b[KRUN  t.tape  line 4: wait\n");
  });

  it("a stopped run says no more when the output is not a terminal", () => {
    vi.useFakeTimers();
    try {
      const { io, text } = capture(false, false);
      const reporter = new GoldenReporter(io);
      reporter.start("t.tape");
      reporter.abandon();
      vi.advanceTimersByTime(20_000);
      expect(text()).toBe("");
    } finally {
      vi.useRealTimers();
    }
  });

  it("colours the verdict and the diff when colour is wanted", () => {
    const { io, text } = capture(false, true);
    new GoldenReporter(io).finish(result(["fail"]));
    expect(text()).toContain("\u001b[31mFAIL\u001b[0m t.tape");
    expect(text()).toContain("\u001b[31m-│\u001b[7mone\u001b[27m│\u001b[0m");
  });

  it("sums written, updated, failed and obsolete snapshots as vitest does, and says nothing when all passed", () => {
    const { io } = capture(false, false);
    const reporter = new GoldenReporter(io);
    reporter.finish(result(["pass", "pass"]));
    expect(reporter.summary()).toBeUndefined();
    reporter.finish(result(["new", "new", "updated", "fail"]));
    reporter.counts.obsolete = 2;
    expect(reporter.summary()).toBe("snapshots: 2 written, 1 updated, 1 failed, 2 obsolete (panescope golden --list-stale names them)");
  });
});
