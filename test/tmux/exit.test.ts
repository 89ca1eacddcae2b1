// A pane's end as tmux records it: #{pane_dead_status} and #{pane_dead_signal}, read in one place.
import { describe, expect, it } from "vitest";
import { parseExit } from "../../src/tmux/exit.js";

describe("parseExit", () => {
  it("reads a status, a signal, or both", () => {
    expect(parseExit("0", "")).toEqual({ status: 0 });
    expect(parseExit("", "15")).toEqual({ signal: "15" });
    expect(parseExit("1", "TERM")).toEqual({ status: 1, signal: "TERM" });
  });

  it("nothing recorded is no exit: a live pane, tmux 3.2a's missing signal format, a signal of 0", () => {
    expect(parseExit("", "")).toBeUndefined();
    expect(parseExit(undefined, undefined)).toBeUndefined();
    expect(parseExit("", "0")).toBeUndefined();
    expect(parseExit("x", "")).toBeUndefined();
  });
});
