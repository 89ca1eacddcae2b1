// The BUILT panescope (dist/cli.js) ends on stdin's end, SIGTERM or SIGINT, with its engine thread
// or --single-thread, also when its tmux server is stopped (SIGSTOP) while it watches a pane: it
// waited for ever on its control client before (tmux holds the client's stdout). Now it leaves the
// client, says so once, and exits 0; with a tmux that answers, it leaves nothing.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, it, type TestContext } from "vitest";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const state = mkdtempSync(join(tmpdir(), "panescope-stopped-exit-"));
afterAll(async () => {
  await killAllServers();
  rmSync(state, { recursive: true, force: true });
});

const REQUESTS = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "exit-test", version: "0" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "capture_since", arguments: { paneId: "%0" } } },
].map((message) => `${JSON.stringify(message)}\n`);

/** Pids of the control clients (`tmux … -C …`) running against this test's socket. */
function controlClientsOf(test: TestServer): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return argv.includes(test.name) && argv.includes("-C");
      } catch {
        return false;
      }
    })
    .map(Number);
}

type Ending = "stdin" | "SIGTERM" | "SIGINT";

/**
 * Runs panescope watching %0, stops tmux (or not), ends panescope `ending`; its exit and stderr.
 * The tests run side by side: each lets its own server go on (SIGCONT) and kills it when it ends,
 * also when it timed out.
 */
async function endWatching(context: TestContext, threads: string[], ending: Ending, stopTmux: boolean): Promise<{ exitCode: number | undefined; stderr: string }> {
  const test = await startServer({ command: "cat" });
  let stopped: number | undefined;
  const resume = (): void => {
    if (stopped !== undefined) process.kill(stopped, "SIGCONT");
    stopped = undefined;
  };
  context.onTestFinished(async () => {
    resume();
    await test.kill();
  });
  const mcp = execa(process.execPath, [CLI, "-L", test.name, ...threads], {
    reject: false,
    // A panescope that hangs is SIGKILLed (its control client ends by its pdeathsig) and the test
    // fails. Not the SIGTERM execa kills with by default: panescope answers it by stopping, and
    // execa would SIGKILL it 5 s after a SIGTERM of ours: the exit must be panescope's own.
    timeout: 50_000,
    killSignal: "SIGKILL",
    env: { XDG_STATE_HOME: state },
  });
  context.onTestFinished(() => void mcp.kill("SIGKILL")); // a test that failed before its end
  let out = "";
  mcp.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  for (const line of REQUESTS) mcp.stdin?.write(line);
  await waitFor(() => out.includes('"id":2'), 20_000, "the answer to capture_since");
  if (stopTmux) {
    stopped = (await test.server.serverGeneration()).pid;
    process.kill(stopped, "SIGSTOP");
  }
  if (ending === "stdin") mcp.stdin?.end();
  else mcp.kill(ending);
  const result = await mcp;
  resume();
  // tmux, going on, lets go of what panescope left (or it was never left): nothing stays attached.
  await waitFor(() => controlClientsOf(test).length === 0, 20_000, "no control client left");
  return { exitCode: result.exitCode, stderr: String(result.stderr) };
}

const LEFT = /^panescope: tmux did not answer: leaving its control client/gm;

describe.concurrent("panescope ends when its tmux server is stopped", () => {
  for (const [threads, label] of [
    [[], "the engine thread"],
    [["--single-thread"], "--single-thread"],
  ] as const) {
    for (const ending of ["stdin", "SIGTERM"] as const) {
      it(`${label}, on ${ending === "stdin" ? "stdin's end" : ending}: exits 0, saying once that it left its control client`, { timeout: 90_000 }, async (context) => {
        const { exitCode, stderr } = await endWatching(context, [...threads], ending, true);
        const { expect } = context;
        expect(exitCode).toBe(0);
        expect(stderr.match(LEFT)).toHaveLength(1);
      });
    }
  }

  it("--single-thread on SIGINT: exits 0 the same way", { timeout: 90_000 }, async (context) => {
    const { exitCode, stderr } = await endWatching(context, ["--single-thread"], "SIGINT", true);
    const { expect } = context;
    expect(exitCode).toBe(0);
    expect(stderr.match(LEFT)).toHaveLength(1);
  });

  it("with a tmux that answers, it leaves nothing and says nothing of it", { timeout: 90_000 }, async (context) => {
    const { exitCode, stderr } = await endWatching(context, [], "stdin", false);
    const { expect } = context;
    expect(exitCode).toBe(0);
    expect(stderr).not.toMatch(LEFT);
  });
});
