// The bench's MCP client: newline-delimited JSON-RPC over a child's stdio, and nothing else. What a
// figure times is then panescope's answer, not a client library's work on it: the SDK client also
// parses each message with zod and checks structuredContent against the tool's schema (≈0.3 ms of a
// wake on this machine; figure 3 reports that path separately).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

interface Reply {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export class StdioRpc {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private buffered = "";
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(command: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.resume(); // its log lines are not the bench's business
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text: string) => this.receive(text));
    this.exit = new Promise((resolve) => {
      this.child.once("exit", () => {
        this.exited = true;
        for (const { reject } of this.waiting.values()) reject(new Error("the MCP server exited"));
        this.waiting.clear();
        resolve();
      });
    });
  }

  /** Spawns the server and completes MCP's initialize handshake. */
  static async start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<StdioRpc> {
    const rpc = new StdioRpc(command, args, env);
    await rpc.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "panescope-bench", version: "0" } });
    rpc.write({ jsonrpc: "2.0", method: "notifications/initialized" });
    return rpc;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** A tools/call result, as the server sent it. */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.request("tools/call", { name, arguments: args });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await this.exit;
  }

  private async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    const reply = await new Promise<Reply>((resolve, reject) => {
      if (this.exited) return reject(new Error("the MCP server exited"));
      this.waiting.set(id, { resolve, reject });
      this.write({ jsonrpc: "2.0", id, method, params });
    });
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result ?? {};
  }

  private write(message: object): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private receive(text: string): void {
    this.buffered += text;
    for (let end = this.buffered.indexOf("\n"); end >= 0; end = this.buffered.indexOf("\n")) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const message = JSON.parse(line) as Reply & { id?: number };
      const waiter = message.id === undefined ? undefined : this.waiting.get(message.id);
      if (!waiter) continue; // a notification, or a reply nobody waits for
      this.waiting.delete(message.id as number);
      waiter.resolve(message);
    }
  }
}
