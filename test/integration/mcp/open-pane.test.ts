// Panes panescope opens: the command starts only once watched (no output lost, also of a command
// that ends at once), the pane keeps its last screen and exit status until close_pane, and what
// open_pane could not do is an error, not "opened".
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, isErrorText, texts, type Capture } from "../../support/mcp-hub.js";
import { textOf } from "../../support/mcp-link.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

interface Opened {
  paneId: string;
  exitStatus?: number;
}

describe("open_pane, and the end of what it started", () => {
  it("a command that ends at once keeps its output, screen and exit status; close_pane says it had ended", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const mcp = await connect(test.server);
    const opened = await mcp.call("open_pane", { command: "echo instant; exit 4", session: "work" });
    expect(isErrorText(opened)).toBeUndefined();
    const { paneId } = opened.structuredContent as unknown as Opened;
    // Read it later, as an agent would: not unknown-pane, the output is there, the end is known.
    await new Promise((resolve) => setTimeout(resolve, 300));
    let delta: Capture = await mcp.capture({ paneId });
    expect(texts(delta)).toContain("instant");
    if (!delta.closed) [delta] = (await mcp.captureUntil(delta, (d) => d.closed)).slice(-1) as [Capture];
    expect(delta).toMatchObject({ closed: true, exit: { status: 4 } });
    const listed = (await mcp.call("list_panes")).structuredContent as { panes: { paneId: string; exitStatus?: number }[] };
    expect(listed.panes.find((p) => p.paneId === paneId)).toMatchObject({ exitStatus: 4 });
    const closed = await mcp.call("close_pane", { paneId });
    expect(closed.structuredContent).toMatchObject({ paneId, ended: true, exitStatus: 4 });
    expect(isErrorText(closed)).toBeUndefined();
  });

  it("its cursor reads everything the command printed, also the lines that scrolled off before the first read", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const mcp = await connect(test.server);
    const opened = await mcp.call("open_pane", { command: "seq 1 100; exit 4", cols: 40, rows: 10, session: "work" });
    const { paneId, cursor } = opened.structuredContent as unknown as Opened & { cursor: string };
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(textOf(opened)).toContain(`cursor (from before its first byte): ${cursor}`);
    const ended = await mcp.call("wait_for", { cursor, closed: true, timeoutMs: 20_000 });
    const delta = (ended.structuredContent as { delta: Capture }).delta;
    expect(delta).toMatchObject({ paneId, closed: true, missed: false, exit: { status: 4 } });
    // The screen shows 91-100 only; a first read by paneId would have been all the agent saw.
    expect(texts(delta).slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(delta.raw.split("\n").filter((line) => line !== "")).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 1)));
  });

  it("wait_for closed ends with the exit status, also of an interactive shell told to exit", { timeout: 60_000 }, async () => {
    const test = await startServer();
    // tmux's default-shell is the one open_pane runs; a plain sh starts at once (no rc files).
    await test.run(["set-option", "-g", "default-shell", "/bin/sh"]);
    const mcp = await connect(test.server);
    const opened = await mcp.call("open_pane", { command: "sleep 0.5; exit 3", session: "work" });
    const { paneId } = opened.structuredContent as unknown as Opened;
    const waited = await mcp.call("wait_for", { paneId, closed: true, timeoutMs: 20_000 });
    expect(waited.structuredContent).toMatchObject({ outcome: "closed", closed: true, exit: { status: 3 } });
    const shell = (await mcp.call("open_pane", { session: "work" })).structuredContent as unknown as Opened;
    await mcp.call("send_keys", { paneId: shell.paneId, text: "exit 5", enter: true });
    const ended = await mcp.call("wait_for", { paneId: shell.paneId, closed: true, timeoutMs: 20_000 });
    expect(ended.structuredContent).toMatchObject({ outcome: "closed", exit: { status: 5 } });
  });

  it("a cwd that does not exist and a command that cannot start are errors that say why", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const mcp = await connect(test.server);
    const badCwd = await mcp.call("open_pane", { command: "pwd", cwd: "/nonexistent/dir", session: "work" });
    expect(isErrorText(badCwd)).toMatch(/bad-input.*\/nonexistent\/dir.*not a directory/s);
    const before = (await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).length;
    const notFound = await mcp.call("open_pane", { command: "no-such-command-panescope", session: "work" });
    expect(isErrorText(notFound)).toMatch(/could not start \(exit status 127.*no-such-command-panescope.*\); the pane was closed\. Check the command name, its arguments and PATH; what it printed is quoted$/s);
    // Not the advice of other command-failed errors: no pane or argument of tmux's was wrong.
    expect(isErrorText(notFound)).not.toContain("list_panes");
    // The shell's message as it printed it, not cut where a narrow pane wrapped it.
    const narrow = await mcp.call("open_pane", { command: "no-such-command-panescope-with-a-long-name", cols: 30, rows: 10, session: "narrow" });
    expect(isErrorText(narrow)).toMatch(/no-such-command-panescope-with-a-long-name: (command )?not found/);
    // The failed pane is not left behind.
    expect((await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).length).toBe(before);
  });
});
