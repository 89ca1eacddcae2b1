// panescope started INSIDE a pane with no TMUX/TMUX_PANE (`env -i`, as MCP clients often start
// servers) still knows that pane is its own: from its ancestry (the pane's process is its parent or
// itself) or its terminal (the pane's pty is its controlling terminal). The built server runs in the
// pane, pointed at the private tmux by -S, and speaks MCP over two FIFOs the test holds.
import { execFileSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { killAllServers, socketFile, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const dirs: string[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await killAllServers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** MCP over a stream pair (the FIFOs): newline-delimited JSON, as on stdio. */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}
  start(): Promise<void> {
    this.input.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    this.input.on("end", () => this.onclose?.());
    this.input.on("error", (error: Error) => this.onerror?.(error));
    return Promise.resolve();
  }
  send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.output.end();
    return Promise.resolve();
  }
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the server is started in its pane (a shell command line, `SERVER` standing for the server
 * with its FIFOs): each leaves it one way to know its pane.
 */
const LAUNCHES: Record<string, (server: string) => string> = {
  "as the pane's own process (exec)": (server) => `exec ${server}`,
  "as a child of the pane's shell": (server) => `${server}; sleep 600`,
  "in a session of its own with no terminal (setsid): by ancestry alone": (server) => `setsid -w ${server} 2>/dev/null; sleep 600`,
  "orphaned in the background (its parent gone): by its terminal alone": (server) => `(${server} &); sleep 600`,
};

async function serverInPane(test: TestServer, launch: (server: string) => string): Promise<{ client: Client; pane: string }> {
  const dir = mkdtempSync(join(tmpdir(), "panescope-ownproc-"));
  dirs.push(dir);
  const input = join(dir, "in");
  const output = join(dir, "out");
  execFileSync("mkfifo", [input, output]);
  const env = ["PATH", "XDG_STATE_HOME"].map((name) => `${name}=${quote(name === "XDG_STATE_HOME" ? dir : (process.env.PATH ?? ""))}`);
  const tmux = process.env.PANESCOPE_TMUX ? ["--tmux", quote(process.env.PANESCOPE_TMUX)] : [];
  // No TMUX, no TMUX_PANE: only what the process is can tell where it runs.
  const server = ["env", "-i", ...env, quote(process.execPath), quote(CLI), "mcp", "-S", quote(socketFile(test.name)), ...tmux, "<", quote(input), ">", quote(output)].join(" ");
  const [pane = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", `${test.session}:`, launch(server)]);
  const transport = new StreamTransport(createReadStream(output), createWriteStream(input));
  const client = new Client({ name: "panescope-own-process", version: "0" });
  clients.push(client);
  await client.connect(transport);
  return { client, pane };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function errorKind(result: CallToolResult): unknown {
  return result.isError ? result._meta?.["panescope/error"] : "ok";
}

describe("panescope started in a pane without TMUX or TMUX_PANE knows that pane is its own", () => {
  for (const [name, launch] of Object.entries(LAUNCHES)) {
    it(name, { timeout: 60_000 }, async () => {
      const test = await startServer({ command: "sh" });
      const [other = ""] = await test.run(["display-message", "-p", "-t", `${test.session}:0`, "#{pane_id}"]);
      const { client, pane } = await serverInPane(test, launch);
      // The environment really is empty of tmux: the server's process has neither variable.
      const typed = await call(client, "send_keys", { paneId: pane, text: "echo typed-into-own-pane", enter: true });
      expect(errorKind(typed), JSON.stringify(typed.content)).toBe("not-allowed");
      const spelled = await call(client, "send_keys", { paneId: `%00${pane.slice(1)}`, text: "x" });
      expect(errorKind(spelled)).toBe("not-allowed");
      expect(errorKind(await call(client, "close_pane", { paneId: pane, force: true }))).toBe("not-allowed");
      const listed = (await call(client, "list_panes")).structuredContent?.panes as { paneId: string; self: boolean }[];
      expect(listed.filter((p) => p.self).map((p) => p.paneId)).toEqual([pane]);
      expect((await test.run(["list-panes", "-a", "-F", "#{pane_id}"])).sort()).toEqual([other, pane].sort());

      // Other panes still work.
      expect(errorKind(await call(client, "send_keys", { paneId: other, text: "echo typed-into-other", enter: true }))).toBe("ok");
      await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", other])).includes("typed-into-other"), 10_000, "the other pane to show the typed line");
      expect((await test.run(["capture-pane", "-p", "-t", pane])).join("\n")).not.toContain("typed-into-own-pane");
    });
  }
});

describe("the process facts those answers rest on", () => {
  it("a process started by env -i in a pane has no TMUX or TMUX_PANE", async () => {
    const test = await startServer({ command: "sh" });
    const dir = mkdtempSync(join(tmpdir(), "panescope-ownproc-"));
    dirs.push(dir);
    const file = join(dir, "env");
    await test.run(["new-window", "-d", "-t", `${test.session}:`, `env -i ${quote(process.execPath)} -e 'console.log(JSON.stringify(process.env))' > ${quote(file)}; sleep 600`]);
    const text = (): string => {
      try {
        return readFileSync(file, "utf8");
      } catch {
        return ""; // not created yet
      }
    };
    await waitFor(() => text().includes("}"), 10_000, "the pane's program to print its environment");
    expect(JSON.parse(text())).toEqual({});
  });
});
