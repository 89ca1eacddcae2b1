// Reading tmux's answers about a pane: the seed probe and the short liveness question.
import { describe, expect, it } from "vitest";
import { parseLiveness, parseProbe, PROBE_FORMAT, seedCommands } from "../../src/watch/probe.js";

const display = (fields: Record<string, string>): string =>
  PROBE_FORMAT.replace(/#\{(\w+)\}/g, (_, name: string) => fields[name] ?? "0");

describe("probe", () => {
  it("the seed recipe pauses first and continues last, with -q so a missing alternate screen is no error", () => {
    const commands = seedCommands("%4");
    expect(commands[0]).toEqual(["refresh-client", "-A", "%4:pause"]);
    expect(commands.at(-1)).toEqual(["refresh-client", "-A", "%4:continue"]);
    expect(commands[1]).toContain("-q");
  });

  it("reads a normal screen: history and rows, cursor and scroll region", () => {
    const line = display({ pane_id: "%4", pane_pid: "77", pane_width: "10", pane_height: "2", cursor_x: "3", cursor_y: "1", history_size: "1", pid: "9", start_time: "100", session_id: "$0", scroll_region_lower: "1" });
    const probe = parseProbe([[""], ["old", "a", "b"], [line]]);
    expect(probe).toMatchObject({ paneId: "%4", panePid: 77, serverPid: 9, serverStart: 100, dead: false, sessionId: "$0" });
    expect(probe.state).toEqual({ cols: 10, rows: 2, lines: ["old", "a", "b"], cursorX: 3, cursorY: 1, scrollTop: 0, scrollBottom: 1 });
  });

  it("reads an alternate screen: history plus the saved normal screen, then the alternate rows", () => {
    const line = display({ pane_id: "%4", pane_width: "10", pane_height: "2", alternate_on: "1", alternate_saved_x: "5", alternate_saved_y: "1", history_size: "1" });
    const probe = parseProbe([["$ vim", ""], ["old", "~", "~"], [line]]);
    expect(probe.state.lines).toEqual(["old", "$ vim", ""]);
    expect(probe.state.alternate).toEqual({ lines: ["~", "~"], savedX: 5, savedY: 1 });
  });

  it("a garbled display line is a protocol error, not a wrong screen", () => {
    expect(() => parseProbe([[], [], ["%4 x"]])).toThrow(/not a number/);
  });

  it("liveness: tmux answering for another pane means this one is gone", () => {
    expect(parseLiveness("%4", ["%4 77 1"])).toEqual({ exists: true, panePid: 77, dead: true });
    expect(parseLiveness("%99", [""])).toMatchObject({ exists: false });
    expect(parseLiveness("%99", ["%0 12 0"])).toMatchObject({ exists: false });
  });
});
