// How much a watcher changes what a user's plain tmux commands (run outside tmux, without -t/-c)
// act on. tmux picks the "current" session and client by activity (cmd-find.c: the session used
// most recently, then its client with the latest activity), and a control client takes part: its
// attach marks its session as just used, and it counts as created then. tmux (3.2a–3.7c) offers no
// way out, so this test pins down the exact, documented effect (docs/tmux-versions.md): it lasts
// until the user's next key press, and never resizes or moves the user's own client.
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, paneIn } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

/** What a plain `tmux display-message -p` run outside tmux takes as current: session and client kind. */
async function current(test: TestServer): Promise<string> {
  const [line = ""] = await test.run(["display-message", "-p", "#{session_name} #{?client_control_mode,control,terminal}"]);
  return line;
}

describe("the watcher and the user's plain tmux commands", () => {
  it("watching changes the current client until the user presses a key; another session, until then too", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 80, rows: 24, session: "user", command: "cat" });
    await test.run(["new-session", "-d", "-s", "other", "-x", "80", "-y", "24", "cat"]);
    // The user's terminal: a real tty client attached to "user"; what we write to script's stdin is typed.
    const terminal = execa("script", ["-qfc", `stty cols 80 rows 25; exec ${test.server.tmux} -L ${test.name} attach -t user`, "/dev/null"], { stdin: "pipe", reject: false });
    // A key the user types: `cat` in their pane echoes it, so we know tmux read it from their client.
    let typed = 0;
    const type = async (): Promise<void> => {
      typed++;
      terminal.stdin.write("x");
      await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "user"])).join("").split("x").length > typed, 5000, "the key press");
    };
    try {
      await waitFor(async () => (await current(test)) === "user terminal", 5000, "the terminal client");
      await type();
      const size = async (): Promise<string> => (await test.run(["display-message", "-p", "-t", "user", "#{window_width}x#{window_height}"]))[0] ?? "";
      const sizeBefore = await size();

      // panescope watches a pane of the user's own session: the session stays, the client does not.
      const mcp = await connect(test.server);
      await mcp.capture({ paneId: await paneIn(test, "user") });
      expect(await current(test)).toBe("user control");
      await type();
      expect(await current(test)).toBe("user terminal");

      // A pane of another session: that session becomes the current one, until the user types.
      await mcp.capture({ paneId: await paneIn(test, "other") });
      expect(await current(test)).toBe("other control");
      await type();
      expect(await current(test)).toBe("user terminal");

      // Never: the user's window keeps its size, and the user's client stays where it was.
      expect(await size()).toBe(sizeBefore);
      expect(await test.run(["list-clients", "-F", "#{?client_control_mode,control,terminal} #{session_name}"])).toContain("terminal user");
    } finally {
      terminal.kill();
      await terminal;
    }
  });
});
