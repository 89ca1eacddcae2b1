// Reading tmux's answers about a pane: the seed probe and the short liveness question.
import { describe, expect, it } from "vitest";
import { livenessCommand, parseLiveness, parseProbe, PROBE, seedCommands } from "../../src/watch/probe.js";
import { tmuxPrints } from "../support/tmux-output.js";

const ZEROS = Object.fromEntries(["pane_width", "pane_height", "cursor_x", "cursor_y", "alternate_on", "alternate_saved_x", "alternate_saved_y", "scroll_region_upper", "scroll_region_lower", "history_size", "pane_dead", "pane_pid", "pid", "start_time"].map((name) => [name, "0"]));
/** The probe's display line as tmux 3.4 prints it (the version that escapes most). */
const display = (fields: Record<string, string>): string => tmuxPrints(PROBE.text, { ...ZEROS, ...fields }, "3.4").join("\n");

describe("probe", () => {
  it("the seed recipe pauses first and continues last, with -q so a missing alternate screen is no error", () => {
    const commands = seedCommands("%4", 1000);
    expect(commands[0]).toEqual(["refresh-client", "-A", "%4:pause"]);
    // Only the history the replica keeps: a pane with 200k lines of it must not be captured whole.
    expect(commands[2]).toEqual(expect.arrayContaining(["-S", "-1000"]));
    expect(commands.at(-1)).toEqual(["refresh-client", "-A", "%4:continue"]);
    expect(commands[1]).toContain("-q");
  });

  it("reads a normal screen: history and rows, cursor and scroll region", () => {
    const line = display({ pane_id: "%4", pane_pid: "77", pane_width: "10", pane_height: "2", cursor_x: "3", cursor_y: "1", history_size: "1", pid: "9", start_time: "100", session_id: "$0", scroll_region_lower: "1" });
    const probe = parseProbe([[""], ["old", "a", "b"], [line]]);
    expect(probe).toMatchObject({ paneId: "%4", panePid: 77, serverPid: 9, serverStart: 100, dead: false, sessionId: "$0" });
    expect(probe.state).toMatchObject({ cols: 10, rows: 2, lines: ["old", "a", "b"], cursorX: 3, cursorY: 1, scrollTop: 0, scrollBottom: 1 });
  });

  it("reads an alternate screen: history plus the saved normal screen, then the alternate rows", () => {
    const line = display({ pane_id: "%4", pane_width: "10", pane_height: "2", alternate_on: "1", alternate_saved_x: "5", alternate_saved_y: "1", history_size: "1" });
    const probe = parseProbe([["$ vim", ""], ["old", "~", "~"], [line]]);
    expect(probe.state.lines).toEqual(["old", "$ vim", ""]);
    expect(probe.state.alternate).toEqual({ lines: ["~", "~"], savedX: 5, savedY: 1 });
  });

  it("reads the modes tmux reports: tab stops, all-motion mouse (not 'any mouse mode'), bracketed paste, cursor style", () => {
    const line = display({ pane_id: "%4", pane_width: "20", pane_height: "1", pane_tabs: "4,12", mouse_any_flag: "1", mouse_standard_flag: "1", bracket_paste_flag: "1", cursor_shape: "bar", cursor_blinking: "0" });
    const { state } = parseProbe([[""], [""], [line]]);
    expect(state.tabs).toEqual([4, 12]);
    expect(state.modes).toMatchObject({ mouse: { standard: true, any: false }, bracketedPaste: true, cursorStyle: { shape: "bar", blinking: false } });
    // Every stop cleared (TBC 3) is an empty list; an older tmux prints nothing for the newer formats.
    const older = parseProbe([[""], [""], [display({ pane_id: "%4", pane_width: "20", pane_height: "1", pane_tabs: "", cursor_shape: "" })]]).state;
    expect(older.tabs).toEqual([]);
    expect(older.modes?.cursorStyle).toBeUndefined();
    expect(() => parseProbe([[""], [""], [display({ pane_id: "%4", pane_tabs: "4,x" })]])).toThrow(/pane_tabs/);
  });

  it("the ended-hint option is only a reason to look: the pane's process says whether and how it ended", () => {
    const line = display({ pane_id: "%4", pane_pid: "77", pane_width: "10", pane_height: "1", "@panescope_status": "0" });
    const asked: number[] = [];
    const forged = parseProbe([[""], ["a"], [line]], (pid) => void asked.push(pid));
    expect(forged).toMatchObject({ dead: false });
    expect(forged.exit).toBeUndefined();
    expect(asked).toEqual([77]);
    expect(parseProbe([[""], ["a"], [line]], () => 3)).toMatchObject({ dead: true, exit: { status: 3 } });
  });

  it("a garbled display line is a protocol error, not a wrong screen", () => {
    expect(() => parseProbe([[], [], ["%4 x"]])).toThrow(/where a record was expected/);
    expect(() => parseProbe([[], [], [display({ pane_id: "%4", cursor_x: "x" })]])).toThrow(/not a number/);
  });

  it("liveness: tmux answering for another pane means this one is gone", () => {
    const format = livenessCommand("%4")[4] ?? "";
    const line = (id: string, pid: string, dead: string): string[] => tmuxPrints(format, { pane_id: id, pane_pid: pid, pane_dead: dead }, "3.4");
    expect(parseLiveness("%4", line("%4", "77", "1"))).toEqual({ exists: true, panePid: 77, dead: true });
    expect(parseLiveness("%99", [""])).toMatchObject({ exists: false });
    expect(parseLiveness("%99", line("%0", "12", "0"))).toMatchObject({ exists: false });
  });
});
