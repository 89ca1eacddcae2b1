// tmux 3.2a–3.6a crash (NULL+0xf0 read in winlinks_RB_MINMAX, from control_check_subs_all_panes)
// when a control client with a `%*` subscription has no session at a tick of its 1-second
// subscription timer: from the moment its session is destroyed (kill-pane of its last pane,
// kill-session) or it starts to exit, until its tmux process has gone. A slow or stopped
// `tmux -C` process holds that window open; here it is stopped (SIGSTOP) to hold it for certain,
// where a busy machine holds it by chance (the crash seen during test/mcp/fuzz.test.ts). The server
// must survive on every version (version.ts crashesWithoutSession).
import { afterEach, describe, expect, it } from "vitest";
import { closeAll, connect, isErrorText } from "../../support/mcp-hub.js";
import { killAllServers, startServer, type TestServer } from "../../support/tmux-fixture.js";

afterEach(async () => {
  await closeAll();
  await killAllServers();
});

/** The pids of the `tmux -C` processes attached to `session` (panescope's control clients). */
async function controlClients(test: TestServer, session: string): Promise<number[]> {
  const lines = await test.run(["list-clients", "-t", session, "-F", "#{client_pid}"]);
  return lines.filter((line) => /^\d+$/.test(line)).map(Number);
}

/**
 * Asks the server for its pid until `ms` have passed since `from`: tmux's subscription timer ticks
 * every second, so 2.5 s hold at least two ticks (on a slow machine, more). There is no event to
 * await: the would-be event is the crash. A server that stays away longer only makes this pass late.
 */
async function aliveThrough(test: TestServer, serverPid: string, from: number, ms: number): Promise<void> {
  do {
    expect(await test.run(["display-message", "-p", "#{pid}"])).toEqual([serverPid]);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (performance.now() - from < ms);
  expect(await test.run(["display-message", "-p", "#{pid}"])).toEqual([serverPid]);
}

describe("a watching control client left without a session", () => {
  for (const how of ["close_pane of its session's last pane", "a user's kill-session"] as const) {
    it(`by ${how}, while its tmux process is slow to exit: the tmux server survives`, { timeout: 60_000 }, async () => {
      const test = await startServer();
      const [serverPid = ""] = await test.run(["display-message", "-p", "#{pid}"]);
      const mcp = await connect(test.server);
      const opened = await mcp.call("open_pane", { command: "cat", session: "doomed" });
      expect(isErrorText(opened)).toBeUndefined();
      const { paneId } = opened.structuredContent as { paneId: string };
      // Watched, read, and typed into: the watching client is attached and subscribed.
      await mcp.call("send_keys", { paneId, text: "hello", enter: true });
      const waited = await mcp.call("wait_for", { paneId, pattern: "hello", timeoutMs: 20_000 });
      expect(waited.structuredContent).toMatchObject({ outcome: "matched" });
      const clients = await controlClients(test, "doomed");
      expect(clients.length).toBeGreaterThan(0);
      for (const pid of clients) process.kill(pid, "SIGSTOP");
      try {
        if (how === "a user's kill-session") await test.run(["kill-session", "-t", "doomed"]);
        else expect(isErrorText(await mcp.call("close_pane", { paneId }))).toBeUndefined();
        await aliveThrough(test, serverPid, performance.now(), 2500);
      } finally {
        for (const pid of clients) {
          try {
            process.kill(pid, "SIGCONT");
          } catch {
            // Already gone (with the server it was attached to).
          }
        }
      }
      // Still answering: the other session is there, and panescope can list it.
      expect(await test.run(["display-message", "-p", "#{pid}"])).toEqual([serverPid]);
      expect(isErrorText(await mcp.call("list_panes"))).toBeUndefined();
    });
  }
});
