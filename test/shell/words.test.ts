// Errors printed by the shell commands name the commands, not the MCP tools (src/shell/words.ts).
import { describe, expect, it } from "vitest";
import { inShellWords, noServer } from "../../src/shell/words.js";

describe("inShellWords", () => {
  it("names each tool as the command that makes its call, and leaves other words alone", () => {
    expect(inShellWords("error (unknown-pane): no pane %99 on this tmux server: list_panes shows the panes there are")).toBe(
      "error (unknown-pane): no pane %99 on this tmux server: panescope list shows the panes there are",
    );
    expect(inShellWords("capture_since, wait_for, send_keys, open_pane, close_pane, capture_pane")).toBe(
      "panescope read, panescope wait, panescope send, panescope open, panescope close, panescope shot",
    );
    expect(inShellWords("my_list_panes_x and list_panes_ are not tools")).toBe("my_list_panes_x and list_panes_ are not tools");
  });

  it("names the command's tmux server in the panescope list it advises, which would otherwise list another server", () => {
    const unknown = "error (unknown-pane): no pane %9 on this tmux server: list_panes shows the panes there are";
    expect(inShellWords(unknown, { socketName: "work" })).toBe("error (unknown-pane): no pane %9 on this tmux server: panescope list -L work shows the panes there are");
    expect(inShellWords(unknown, { socketPath: "/tmp/my sock" })).toContain("panescope list -S '/tmp/my sock' shows");
    expect(inShellWords(unknown, {})).toContain(": panescope list shows");
    // Only the advice takes the flags: a command a message names as the one that failed does not.
    expect(inShellWords("invalid arguments for capture_since: bad", { socketName: "work" })).toBe("invalid arguments for panescope read: bad");
  });

  it("names an argument the shell takes as a flag by the flag, and leaves other words alone", () => {
    expect(inShellWords("Send other text with `text`")).toBe("Send other text with --text");
    expect(inShellWords("the text of a row")).toBe("the text of a row");
    expect(inShellWords("%3 was not opened by panescope: pass `force: true` to kill it anyway")).toBe("%3 was not opened by panescope: pass --force to kill it anyway");
    expect(inShellWords("read %0 with it, or omit `cursor` to start watching %1")).toBe("read %0 with it, or omit --cursor to start watching %1");
    expect(inShellWords("pass a regular expression, or use `quietMs` or `closed: true`")).toBe("pass a regular expression, or use --quiet MS or --closed");
    // A refused value's message names the argument bare, and where it is as `(at NAME)`.
    expect(inShellWords("invalid arguments for wait_for: quietMs must be at least 1 (at quietMs)")).toBe("invalid arguments for panescope wait: --quiet must be at least 1");
    expect(inShellWords("invalid arguments for send_keys: text is at most 16384 characters: send long input in parts (at input.0.text)")).toBe(
      "invalid arguments for panescope send: text is at most 16384 characters: send long input in parts (at --text)",
    );
    expect(inShellWords("session must be 1-64 letters, digits, _ or - (at session)")).toBe("session must be 1-64 letters, digits, _ or - (at --session)");
    expect(inShellWords("a session named work, maxLinesX")).toBe("a session named work, maxLinesX");
    // The pane is a command's one %N, which the message names.
    expect(inShellWords("invalid arguments for capture_since: pane id %4294967296 is out of range: tmux numbers panes from %0 to %4294967295 (list_panes shows the panes there are) (at paneId)")).toBe(
      "invalid arguments for panescope read: pane id %4294967296 is out of range: tmux numbers panes from %0 to %4294967295 (panescope list shows the panes there are)",
    );
  });

  it("says no tmux server is running of the server as the command named it, with the tmux command that starts it", () => {
    expect(noServer({ socketName: "qa-none" })).toBe(
      "error (no-server): the tmux server of -L qa-none is not running: start it with `tmux -L qa-none new-session -d`, or name another with -L NAME or -S PATH",
    );
    expect(noServer({ socketPath: "./run/tmux.sock" })).toContain("the tmux server of -S ./run/tmux.sock is not running: start it with `tmux -S ./run/tmux.sock new-session -d`");
    expect(noServer({})).toContain("the default tmux server is not running: start it with `tmux new-session -d`");
    // A name the shell would split or expand is quoted, so the command can be pasted as it is.
    expect(noServer({ socketName: "it's mine" })).toContain(`\`tmux -L 'it'"'"'s mine' new-session -d\``);
  });
});
