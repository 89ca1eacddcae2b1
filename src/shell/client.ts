// One connection to the daemon, from the CLI's side: JSON-RPC requests out, their answers in, one
// line each. Deliberately small (node:net and nothing else): `panescope read` must start at about
// the cost of Node itself, so no MCP SDK, zod or xterm here.
import { connect, type Socket } from "node:net";
import { PanescopeError } from "../errors.js";
import type { Id, Response } from "./protocol.js";

/** A request before it is sent: its method and params (the id is the connection's). */
export interface Call {
  method: string;
  params: Record<string, unknown>;
}

/** Answers are bounded by the tools' maxBytes (≤ 4 MiB of content); allow their JSON framing. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

export class DaemonConnection {
  private buffered = "";
  private nextId = 1;
  private readonly pending = new Map<Id, { resolve: (r: Response) => void; reject: (e: Error) => void }>();
  private gone: Error | undefined;
  /** Bytes after the answers this connection waited for, when a relay takes the socket over. */
  onLine: ((line: string) => void) | undefined;

  private constructor(readonly socket: Socket, readonly path: string) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.receive(chunk));
    socket.on("error", (error) => this.end(error));
    socket.on("close", () => this.end(new Error("the connection closed")));
  }

  /** Connects; rejects with the errno error (ENOENT, ECONNREFUSED: no daemon there). */
  static open(path: string): Promise<DaemonConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ path });
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(new DaemonConnection(socket, path));
      });
      socket.once("error", reject);
    });
  }

  /** One request; resolves with its answer (result or error), rejects if the daemon goes away first. */
  request(method: string, params: Record<string, unknown>): Promise<Response> {
    const [answer] = this.requests([{ method, params }]);
    return answer ?? Promise.reject(new PanescopeError("internal", "a request was not sent"));
  }

  /**
   * Requests sent in one write, none waiting for another's answer (the daemon answers them in
   * order): a hello and a call cost one round trip, not two. Each answer as `request`'s.
   */
  requests(calls: readonly Call[]): Promise<Response>[] {
    const lines: string[] = [];
    const answers = calls.map(({ method, params }) => {
      const id = this.nextId++;
      lines.push(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return this.gone ? Promise.reject(this.gone) : new Promise<Response>((resolve, reject) => void this.pending.set(id, { resolve, reject }));
    });
    if (!this.gone) this.socket.write(lines.join(""));
    return answers;
  }

  /** Cancels what the daemon is working on (MCP's notification: its wait ends at once), then ends the connection after it. */
  cancel(): void {
    for (const id of this.pending.keys()) this.socket.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "interrupted" } })}\n`);
    this.socket.end();
  }

  /** Drops the connection at once: waiting for the daemon's side of the close cost a round trip per command. */
  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    if (this.buffered.length > MAX_LINE_CHARS && !this.buffered.includes("\n")) {
      this.end(new PanescopeError("daemon", `the daemon sent a line over ${MAX_LINE_CHARS} characters`));
      this.socket.destroy();
      return;
    }
    for (let at = this.buffered.indexOf("\n"); at !== -1; at = this.buffered.indexOf("\n")) {
      const line = this.buffered.slice(0, at);
      this.buffered = this.buffered.slice(at + 1);
      if (this.onLine) this.onLine(line);
      else this.answer(line);
    }
  }

  private answer(line: string): void {
    let message: Response;
    try {
      message = JSON.parse(line) as Response;
    } catch {
      this.end(new PanescopeError("daemon", `the daemon sent a line that is not JSON: ${line.slice(0, 80)}`));
      this.socket.destroy();
      return;
    }
    // A notification (progress, a log line) has no id: nothing waits for it.
    const waiting = message.id === null || message.id === undefined ? undefined : this.pending.get(message.id);
    if (waiting === undefined || message.id === null) return;
    this.pending.delete(message.id);
    waiting.resolve(message);
  }

  /** Takes what is buffered past the answers read so far (for a relay that pipes the rest). */
  takeBuffered(): string {
    const rest = this.buffered;
    this.buffered = "";
    return rest;
  }

  private end(error: Error): void {
    this.gone ??= error;
    for (const { reject } of this.pending.values()) reject(this.gone);
    this.pending.clear();
  }
}
