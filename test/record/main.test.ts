// What `panescope record` says: its summary line, and its errors worded for a person at a shell
// (the commands to run on the server given, never the MCP tools the hub's messages name).
import { describe, expect, it } from "vitest";
import { PanescopeError } from "../../src/errors.js";
import { failure, summary } from "../../src/record/main.js";

describe("panescope record's words", () => {
  it("a pane that is not there names panescope list with the server's flag", () => {
    const hub = new PanescopeError("unknown-pane", "no pane %999 on this tmux server: list_panes shows the panes there are");
    expect(failure(hub, { server: { socketName: "rx" }, paneId: "%999", output: "x.cast" })).toBe(
      "error (unknown-pane): no pane %999 on the tmux server of -L rx: `panescope list -L rx` shows the panes there are",
    );
    expect(failure(hub, { server: {}, output: "x.cast" })).not.toMatch(/list_panes/);
  });

  it("no server running says how to start the one named by -L or -S", () => {
    const tmux = new PanescopeError("no-server", 'no tmux server is running on this socket (…): start one with "tmux -L work new-session -d"');
    expect(failure(tmux, { server: { socketName: "rx" }, output: "x.cast" })).toBe(
      "error (no-server): the tmux server of -L rx is not running: start it with `tmux -L rx new-session -d`, or name another with -L NAME or -S PATH",
    );
    expect(failure(tmux, { server: { socketPath: "/tmp/s" }, output: "x.cast" })).toMatch(/start it with `tmux -S \/tmp\/s new-session -d`/);
    expect(failure(tmux, { server: {}, output: "x.cast" })).toMatch(/^error \(no-server\): the default tmux server is not running: start it with `tmux new-session -d`/);
  });

  it("counts one event in the singular", () => {
    expect(summary("%0", "a.cast", 1, 0.31, "0.3 s passed")).toBe("recorded %0 to a.cast: 1 event in 0.3 s (0.3 s passed)");
    expect(summary("%0", "a.cast", 14, 3.7, "stopped")).toBe("recorded %0 to a.cast: 14 events in 3.7 s (stopped)");
  });
});
