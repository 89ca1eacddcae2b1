// `panescope mcp --shared`: two MCP clients and the shell command read one pane through one
// daemon, so the tmux session has one control client however many agents watch it.
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa, type ResultPromise } from "execa";
import { HELLO, PROTOCOL } from "../../../src/shell/protocol.js";
import { startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { CLI, shellPlace, socketIn, type ShellPlace } from "../../support/shell-daemon.js";

let tmux: TestServer;
let place: ShellPlace;

beforeAll(async () => {
  tmux = await startServer({ command: "sh", cols: 60, rows: 10 });
  place = shellPlace(tmux.name);
});

afterAll(async () => {
  await place.clean();
  await tmux.kill();
});

/** An MCP client of `panescope mcp --shared` over its stdio: one request at a time, answers by id. */
class SharedClient {
  readonly process: ResultPromise<{ reject: false; buffer: false }>;
  private buffered = "";
  private readonly waiting = new Map<number, (answer: Record<string, unknown>) => void>();
  private nextId = 1;

  constructor(env: Record<string, string>, cwd?: string) {
    this.process = execa(process.execPath, [CLI, "mcp", "--shared", "-L", tmux.name], { env, reject: false, buffer: false, timeout: 60_000, ...(cwd === undefined ? {} : { cwd }) });
    this.process.stdout?.setEncoding("utf8");
    this.process.stdout?.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let at = this.buffered.indexOf("\n"); at !== -1; at = this.buffered.indexOf("\n")) {
        const answer = JSON.parse(this.buffered.slice(0, at)) as { id: number; result: Record<string, unknown> };
        this.buffered = this.buffered.slice(at + 1);
        this.waiting.get(answer.id)?.(answer.result);
      }
    });
  }

  call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.process.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  async read(paneId: string, cursor?: string): Promise<{ cursor: string; rows: { text: string }[] }> {
    const result = await this.call("tools/call", { name: "capture_since", arguments: { paneId, ...(cursor === undefined ? {} : { cursor }) } });
    return result.structuredContent as { cursor: string; rows: { text: string }[] };
  }

  async end(): Promise<number | undefined> {
    this.process.stdin?.end();
    return (await this.process).exitCode;
  }
}

/** The daemon's clients now, this look's own connection left out (from its welcome). */
function daemonClients(): Promise<number> {
  const socket = connect({ path: socketIn(join(place.runtime, "panescope")) });
  socket.setEncoding("utf8");
  const welcomed = new Promise<number>((resolve) => socket.once("data", (line: string) => resolve((JSON.parse(line) as { result: { clients: number } }).result.clients - 1)));
  socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: HELLO, params: { protocol: PROTOCOL, version: "test" } })}\n`);
  return welcomed.finally(() => socket.destroy());
}

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "shared-test", version: "0" } };

describe("mcp --shared", () => {
  it("two MCP clients and the CLI read one pane through one daemon: one control client for the session", async () => {
    const a = new SharedClient(place.env);
    const b = new SharedClient(place.env);
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "shared-test", version: "0" } };
    expect((await a.call("initialize", init)).serverInfo).toMatchObject({ name: "panescope" });
    expect((await b.call("initialize", init)).serverInfo).toMatchObject({ name: "panescope" });
    const fromA = await a.read("%0");
    const fromB = await b.read("%0");
    await tmux.run(["send-keys", "-t", "%0", "-l", "echo shared-$((2+3))"]);
    await tmux.run(["send-keys", "-t", "%0", "Enter"]);
    const cli = await place.run(["wait", "%0", "--as", "cli", "--for", "^shared-5$", "--timeout", "20000"]);
    expect(cli.exitCode, cli.stderr).toBe(0);
    const laterA = await a.read("%0", fromA.cursor);
    const laterB = await b.read("%0", fromB.cursor);
    expect(laterA.rows.map((r) => r.text)).toContain("shared-5");
    expect(laterB.rows.map((r) => r.text)).toContain("shared-5");

    expect(place.daemons()).toHaveLength(1);
    const controlClients = await tmux.run(["list-clients", "-F", "#{client_control_mode}"]);
    expect(controlClients.filter((c) => c === "1")).toHaveLength(1);

    expect(await a.end()).toBe(0);
    expect(await b.end()).toBe(0);
    // The daemon stays for the next client (it exits after its quiet period).
    expect(place.daemons()).toHaveLength(1);
  });

  it("open_pane with no cwd starts where the relay runs, not in the daemon's /", async () => {
    const where = join(process.cwd(), "test");
    const client = new SharedClient(place.env, where);
    await client.call("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "shared-test", version: "0" } });
    const opened = await client.call("tools/call", { name: "open_pane", arguments: { command: "echo in=$(pwd); exec sleep 60" } });
    const paneId = (opened.structuredContent as { paneId: string }).paneId;
    const waited = await client.call("tools/call", { name: "wait_for", arguments: { paneId, pattern: "^in=", timeoutMs: 20_000 } });
    // Closed first: a pane left open keeps its session's control client.
    await client.call("tools/call", { name: "close_pane", arguments: { paneId } });
    expect(await client.end()).toBe(0);
    const rows = (waited.structuredContent as { rows?: { text: string }[] }).rows ?? [];
    expect(rows.map((r) => r.text)).toContain(`in=${where}`);
  });

  it("a relay killed during a wait: the daemon cancels its call at once, not when the wait would have ended", async () => {
    const client = new SharedClient(place.env);
    await client.call("initialize", INIT);
    const before = await daemonClients();
    void client.call("tools/call", { name: "wait_for", arguments: { paneId: "%0", pattern: "^never-shown$", timeoutMs: 120_000 } });
    // Answered after the wait was read: the wait is under way in the daemon.
    await client.call("tools/call", { name: "list_panes", arguments: {} });
    client.process.kill("SIGKILL");
    await client.process;
    // Before, its connection (and its wait) stayed until the timeout: for nobody, holding the daemon from its idle exit.
    await waitFor(async () => (await daemonClients()) === before - 1, 20_000, "the daemon to let the killed relay's connection go");
  });

  it("a relay whose stdin ends during a wait still gets its answer, then exits 0", async () => {
    const client = new SharedClient(place.env);
    await client.call("initialize", INIT);
    const waited = client.call("tools/call", { name: "wait_for", arguments: { paneId: "%0", pattern: "^never-shown$", timeoutMs: 1_500 } });
    expect(await client.end()).toBe(0);
    expect((await waited).structuredContent).toMatchObject({ outcome: "timeout" });
  });
});
