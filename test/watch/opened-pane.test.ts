// Reading a pane's process as panescope's wrapper: the argv of the running and of the held wrapper,
// and what does not count (an option is never looked at).
import { describe, expect, it } from "vitest";
import { paneCommand } from "../../src/mcp/pane-command.js";
import { HELD_MARK, HOLD_SCRIPT, openedPane, openedPanes, type ProcessArgs } from "../../src/watch/opened-pane.js";

const args = (table: Record<number, string[]>): ProcessArgs => (pids) => new Map(pids.filter((pid) => pid in table).map((pid) => [pid, table[pid] as string[]]));
const held = (status: string, command = "make test"): string[] => ["sh", "-c", HOLD_SCRIPT, HELD_MARK, "/usr/bin/tmux", "panescope-open-0123456789ab-held", status, "/bin/bash", command, "panescope-ended-0123456789ab"];

describe("openedPane", () => {
  it("knows the running wrapper open_pane starts, and the program it runs (or the shell)", () => {
    const running = paneCommand("python3 -q", "/bin/bash", "tmux").argv;
    const shell = paneCommand(undefined, "/usr/bin/fish", "tmux").argv;
    expect(openedPane(10, args({ 10: running }))).toEqual({ program: "python3" });
    expect(openedPane(11, args({ 11: shell }))).toEqual({ program: "fish" });
  });

  it("reads the exit status the held wrapper carries in its argv", () => {
    expect(openedPane(12, args({ 12: held("3") }))).toEqual({ program: "make", ended: 3 });
    expect(openedPane(12, args({ 12: held("x3") }))).toBeUndefined();
  });

  it("anything else is not ours: a shell, a gone process, a command that only mentions the marker", () => {
    const table = { 1: ["-bash"], 2: ["bash", "-c", "echo panescope-held panescope-open-0123456789ab-held 0"], 3: ["tmux", "wait-for", "panescope-open-0123456789ab-held"] };
    expect(openedPanes([1, 2, 3, 4], args(table)).size).toBe(0);
  });
});
