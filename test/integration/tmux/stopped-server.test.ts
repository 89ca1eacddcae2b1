// A stopped (SIGSTOP) tmux server: every tool that asks tmux answers an error within its time limit,
// and what was cancelled or timed out does nothing once the server goes on (SIGCONT).
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { TmuxServer } from "../../../src/tmux/server.js";
import { link, textOf, type Linked } from "../../support/mcp-link.js";
import { StoppedServers } from "../../support/stopped-tmux.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const stopped = new StoppedServers();
const linked: Linked[] = [];

afterEach(async () => {
  stopped.resumeAll();
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

/** The pids of the one-shot tmux clients panescope has running against this socket now. */
function clientsOf(socketName: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return argv.includes(socketName) && argv.includes("source-file");
      } catch {
        return false;
      }
    })
    .map(Number);
}


function kindOf(result: Awaited<ReturnType<Linked["call"]>>): unknown {
  return result.isError === true ? result._meta?.["panescope/error"] : `not an error: ${textOf(result)}`;
}

describe("a stopped tmux server", () => {
  it("list_panes, send_keys and open_pane answer timeout errors, and none of them acts after SIGCONT", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    const mcp = await link(new TmuxServer({ socketName: test.name, commandTimeoutMs: 300 }));
    linked.push(mcp);
    const before = await test.run(["list-panes", "-a", "-F", "#{pane_id}"]);
    const pid = await stopped.stop(test);

    expect(kindOf(await mcp.call("list_panes"))).toBe("timeout");
    expect(kindOf(await mcp.call("send_keys", { paneId: "%0", text: "typed-after-timeout" }))).toBe("timeout");
    const opened = await mcp.call("open_pane", { command: "sleep 100", session: "late" });
    expect(kindOf(opened)).toBe("timeout");
    expect(textOf(opened)).toMatch(/stopped \(SIGSTOP/);

    stopped.resume(pid);
    await expectNothingActed(test, before, "typed-after-timeout");
  });

  it("a send_keys or open_pane cancelled while tmux is stopped does nothing after SIGCONT", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    // A limit far beyond the test: only the cancel can end these calls.
    const mcp = await link(new TmuxServer({ socketName: test.name, commandTimeoutMs: 600_000 }));
    linked.push(mcp);
    const before = await test.run(["list-panes", "-a", "-F", "#{pane_id}"]);
    // Watched before the stop, send_keys gets its cursor without asking tmux and goes on to type.
    expect((await mcp.call("capture_since", { paneId: "%0" })).isError).toBeUndefined();
    const pid = await stopped.stop(test);

    for (const [tool, args] of [
      ["send_keys", { paneId: "%0", text: "typed-after-cancel" }],
      ["open_pane", { command: "sleep 100", session: "late" }],
    ] as const) {
      const earlier = new Set(clientsOf(test.name));
      const cancel = new AbortController();
      const call = mcp.call(tool, args, { signal: cancel.signal }).then(
        () => "answered",
        () => "cancelled",
      );
      // Its tmux client is running, blocked on the stopped server: cancel the call now.
      let client: number | undefined;
      await waitFor(() => (client = clientsOf(test.name).find((pid) => !earlier.has(pid))) !== undefined, 20_000, `a tmux client of ${tool}`);
      cancel.abort();
      expect(await call).toBe("cancelled");
      await waitFor(() => !clientsOf(test.name).includes(client ?? 0), 20_000, `the ${tool} client to be killed`);
    }

    stopped.resume(pid);
    await expectNothingActed(test, before, "typed-after-cancel");
  });
});

/** Once tmux answers a later command, it has seen every earlier client: nothing typed, no new pane. */
async function expectNothingActed(test: TestServer, panesBefore: string[], typed: string): Promise<void> {
  await test.run(["send-keys", "-t", "%0", "-l", "barrier"]);
  await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", "%0"])).join("\n").includes("barrier"), 20_000, "the barrier text");
  expect((await test.run(["capture-pane", "-p", "-t", "%0"])).join("\n")).not.toContain(typed);
  expect(await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).toEqual(panesBefore);
}
