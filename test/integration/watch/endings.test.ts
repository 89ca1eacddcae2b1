// However panescope ends — its client closes stdin, SIGTERM, SIGKILL, SIGKILL while it hangs, a
// crash — none of its tmux control clients stays attached and the user's tmux server lives on, even
// while a watched pane floods (for the kills, it has just stopped, and tmux has read all of it: see
// stopFlood and keepReading). Runs the BUILT panescope (dist/cli.js) on a private tmux server.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));

afterEach(killAllServers);
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

interface Running {
  process: ResultPromise<{ stdin: "pipe"; stdout: "pipe"; stderr: "pipe"; reject: false }>;
  /** Resolves with the JSON-RPC response of the given id. */
  response(id: number): Promise<unknown>;
  send(message: object): void;
}

function startPanescope(t: TestServer): Running {
  const child = execa(process.execPath, [CLI, "--socket", t.name], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    reject: false,
    env: { XDG_STATE_HOME: stateDir },
  });
  let out = "";
  const waiting = new Map<number, (value: unknown) => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
      const message = JSON.parse(out.slice(0, nl)) as { id?: number };
      out = out.slice(nl + 1);
      if (message.id !== undefined) waiting.get(message.id)?.(message);
    }
  });
  return {
    process: child,
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`),
    response: (id) => new Promise((resolve) => waiting.set(id, resolve)),
  };
}

/**
 * A control client of the test's own that keeps tmux reading the flooding pane while panescope does
 * not (hung, or behind on a loaded machine): attached with `-f no-output` (tmux 3.2+), it takes no
 * output, and tmux stops reading a pane only while every attached client is a control client that
 * can take no more (server-client.c). So after stopFlood nothing of the pane's is left unread when
 * panescope is killed. Without it, a hung panescope's kill let tmux read the pane between the two
 * closes that open tmux's own exit (docs/faults.md; seen on 3.6a in the version matrix).
 */
async function keepReading(t: TestServer): Promise<void> {
  const client = execa(t.server.tmux, [...t.server.clientArgs(), "-C", "attach-session", "-f", "no-output", "-t", "main"], { stdin: "pipe", stdout: "ignore", stderr: "ignore", reject: false });
  const pid = client.pid ?? 0;
  keepers.set(t, pid);
  await waitFor(async () => (await t.run(["list-clients", "-F", "#{client_pid}"])).includes(String(pid)), 10_000, "the test's no-output client to attach");
}

/** Each test server's no-output client (keepReading): not panescope's, so never counted as left. */
const keepers = new WeakMap<TestServer, number>();

/** A flooding pane being watched by a running panescope, which holds a control client for it. */
async function watchFlood(): Promise<{ t: TestServer; panescope: Running }> {
  const t = await startServer({ command: "yes panescope-flood" });
  // Attached before panescope's client: no attach of the two meets the other's (attach-turns.ts).
  await keepReading(t);
  const [pane = ""] = await t.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
  const panescope = startPanescope(t);
  panescope.send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "endings", version: "0" } } });
  await panescope.response(1);
  panescope.send({ method: "notifications/initialized" });
  panescope.send({ id: 2, method: "tools/call", params: { name: "capture_since", arguments: { paneId: pane } } });
  await panescope.response(2);
  expect(await controlClients(t)).toHaveLength(1);
  const [pid = ""] = await t.run(["display-message", "-p", "#{pid}"]);
  serverPids.set(t, Number(pid));
  return { t, panescope };
}

/**
 * Stops the flood (its process group: tmux made the pane's process a session leader) and lets tmux
 * read what it had written. A kill of panescope while pane output still arrives can make tmux's
 * server exit on its own fatal error (docs/faults.md: the kernel closes panescope's end of the
 * client's stdin before its stdout; tmux's to fix, seen on 3.6a in the version matrix). The
 * kills below test what panescope leaves behind, with tmux's output for it still queued, not that.
 */
async function stopFlood(t: TestServer): Promise<void> {
  const [panePid = ""] = await t.run(["display-message", "-p", "-t", "main", "#{pane_pid}"]);
  process.kill(-Number(panePid), "SIGSTOP");
  // Two round trips: tmux has run its loop, and read the pane's last bytes, since the stop.
  await t.run(["display-message", "-p", ""]);
  await t.run(["display-message", "-p", ""]);
}

/** Each test server's pid, to say what became of it should it end. */
const serverPids = new WeakMap<TestServer, number>();

/**
 * What became of tmux's server, from /proc: a zombie's wait status is field 52 of its stat (tmux
 * exits 1 on its own fatal errors). On 3.6a, under the version matrix's load, the server was once
 * gone after the SIGKILL below, with no crash in the kernel's log.
 */
function serverFate(pid: number | undefined): string {
  if (pid === undefined) return "its pid was not taken";
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? `tmux's server (pid ${pid}) exited, wait status ${fields[49]}` : `tmux's server (pid ${pid}) is in state ${fields[0]}`;
  } catch {
    return `tmux's server (pid ${pid}) is gone and reaped`;
  }
}

/** panescope's control clients on the server (the test's own no-output client left out). */
async function controlClients(t: TestServer): Promise<string[]> {
  const lines = await t.run(["list-clients", "-F", "#{client_control_mode} #{client_pid}"]);
  return lines.filter((line) => line.startsWith("1 ") && line !== `1 ${keepers.get(t)}`);
}

/** No control client left on the server, no `tmux -C` process of ours left, and the server answers. */
async function expectNothingLeft(t: TestServer): Promise<void> {
  await waitFor(async () => (await controlClients(t)).length === 0, 10_000, "panescope's control client to go").catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; ${serverFate(serverPids.get(t))}`, { cause: error });
  });
  const clients = await execa("pgrep", ["-f", "--", `-L ${t.name} -C`], { reject: false });
  expect(clients.stdout.split("\n").filter((pid) => pid !== "" && pid !== String(keepers.get(t)))).toEqual([]);
  expect(await t.run(["display-message", "-p", "alive"])).toEqual(["alive"]);
}

describe("however panescope ends, it leaves tmux as it was", () => {
  it("its client closes stdin", async () => {
    const { t, panescope } = await watchFlood();
    panescope.process.stdin.end();
    expect((await panescope.process).exitCode).toBe(0);
    await expectNothingLeft(t);
  });

  it("SIGTERM", async () => {
    const { t, panescope } = await watchFlood();
    panescope.process.kill("SIGTERM");
    await panescope.process;
    await expectNothingLeft(t);
  });

  it("SIGKILL", async () => {
    const { t, panescope } = await watchFlood();
    await stopFlood(t);
    panescope.process.kill("SIGKILL");
    await panescope.process;
    await expectNothingLeft(t);
  });

  it("SIGKILL after it hung long enough for tmux to queue output for it", async () => {
    const { t, panescope } = await watchFlood();
    panescope.process.kill("SIGSTOP");
    // The fault itself: a hung panescope, while tmux's queue for it fills up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await stopFlood(t);
    panescope.process.kill("SIGKILL");
    await panescope.process;
    await expectNothingLeft(t);
  });

  it("a crash (SIGABRT)", async () => {
    const { t, panescope } = await watchFlood();
    await stopFlood(t);
    panescope.process.kill("SIGABRT");
    await panescope.process;
    await expectNothingLeft(t);
  });
});
