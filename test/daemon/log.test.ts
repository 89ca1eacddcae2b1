// The daemon's log: which daemons in it did not stop cleanly (so the log is kept for the user to
// read), from the start and stopped lines each daemon writes (src/daemon/log.ts).
import { describe, expect, it } from "vitest";
import { startLine, stoppedLine, unfinished } from "../../src/daemon/log.js";

/** A log as the daemons write it: each line after a timestamp. */
const logOf = (...lines: string[]): string => lines.map((line) => `2026-12-05T04:44:29.341Z ${line}\n`).join("");

describe("the daemon's log", () => {
  it("finds nothing unfinished when every daemon in it stopped, whatever it said between", () => {
    const text = logOf(startLine(11, "/tmp/tmux-0/a"), "ready: socket s", "stopping: SIGTERM", stoppedLine(11, "SIGTERM"), startLine(12, "/tmp/tmux-0/a"), stoppedLine(12, "the tmux server is gone"));
    expect(unfinished(text)).toEqual([]);
    expect(unfinished("")).toEqual([]);
  });

  it("names a daemon that crashed, was killed or exited before it was ready: its start line has no stopped line after it", () => {
    const crashed = logOf(startLine(11, "/s"), "uncaughtException: Error: boom\n    at x (y.js:1:1)", startLine(12, "/s"), stoppedLine(12, "gone"));
    expect(unfinished(crashed)).toEqual([11]);
    expect(unfinished(logOf(startLine(13, "/s"), 'cannot run "/nonexistent/tmux"'))).toEqual([13]);
  });

  it("counts a pid started twice without a stop between as a lost run, though it stopped the second time (pids are reused)", () => {
    expect(unfinished(logOf(startLine(11, "/s"), startLine(11, "/s"), stoppedLine(11, "gone")))).toEqual([11]);
  });

  it("reads a log of daemons from before stopped lines (none stopped cleanly, as far as it can tell) as unfinished", () => {
    expect(unfinished(logOf("panescope 0.1.0 daemon pid 20676 starting: protocol 1, tmux server -S /tmp/tmux-0/x", "stopping: SIGTERM"))).toEqual([20676]);
  });
});
