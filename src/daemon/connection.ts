// One client on the daemon's socket: newline-delimited JSON-RPC through the same transport the
// stdio server uses (mcp/stdio-transport.ts, the socket as both ends). The first request must be
// panescope/hello; its answer names the daemon's protocol, and only a client of the same protocol
// is then served as an MCP session. A named reader's calls without a cursor get the reader's last
// cursor of the pane, and the cursor of each answer is kept for the next call (ReaderGate); one
// such call per reader × pane at a time (busy.ts).
import type { Socket } from "node:net";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { PanescopeError } from "../errors.js";
import { fail } from "../mcp/results.js";
import { StdioTransport } from "../mcp/stdio-transport.js";
import { END, HELLO, NEEDS_HELLO, PROTOCOL, type Hello, type Welcome } from "../shell/protocol.js";
import { canonicalPaneId } from "../tmux/pane-id.js";
import { BusyReaders, busyMessage, type Holder } from "./busy.js";
import type { Loss, ReaderCursors } from "./readers.js";

export interface ConnectionHost {
  welcome(): Welcome;
  /** Builds this connection's MCP server for the hello's policy and connects it to `transport`. */
  serve(hello: Hello, transport: Transport): Promise<void>;
  readers: ReaderCursors;
  /** Which reader × pane a call holds now (shared by every connection). */
  busy: BusyReaders;
  warn(line: string): void;
}

type Message = JSONRPCMessage & { id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** The tools whose answers carry a cursor for the pane they were called on. */
const CURSOR_TOOLS = new Set(["capture_since", "wait_for", "send_keys"]);

function isRequest(message: Message): message is Message & { id: string | number; method: string } {
  return message.method !== undefined && message.id !== undefined;
}

function refusal(id: string | number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: NEEDS_HELLO, message } };
}

/** Serves one accepted socket until it closes. */
export function acceptConnection(socket: Socket, host: ConnectionHost): void {
  const inner = new StdioTransport(socket, socket, { warn: host.warn });
  let stage: "hello" | "serving" | "refused" = "hello";
  const early: Message[] = [];
  let gate: ReaderGate | undefined;
  inner.onmessage = (raw) => {
    const message = raw as Message;
    if (stage === "serving") {
      // The relay's requests have ended: they are answered, then the connection closes.
      if (message.method === END && message.id === undefined) return void inner.endOfRequests();
      if (gate?.started) gate.incoming(message);
      else early.push(message);
      return;
    }
    if (!isRequest(message)) return;
    if (stage === "refused" || message.method !== HELLO) {
      void inner.send(refusal(message.id, stage === "refused" ? `this daemon speaks protocol ${PROTOCOL}: connect again with a matching panescope` : `send ${HELLO} first`));
      return;
    }
    const hello = (message.params ?? {}) as unknown as Hello;
    void inner.send({ jsonrpc: "2.0", id: message.id, result: { ...host.welcome() } });
    if (hello.protocol !== PROTOCOL) {
      stage = "refused";
      return;
    }
    stage = "serving";
    // A shell command's end of the socket means it is gone (killed, or its terminal closed): it
    // never ends its side while an answer is due. Its wait left running kept the reader's cursor
    // when it ended, past output nobody saw. A relay that says its requests ended with END (endNotice)
    // is gone too when its end comes: its wait ran on for nobody until its timeout. An older relay's
    // end is its stdin's: what was read is answered.
    if (hello.endCancels === true || hello.endNotice === true) socket.once("end", () => void inner.close());
    gate = new ReaderGate(inner, host.readers, typeof hello.reader === "string" ? hello.reader : undefined, early, host.busy);
    host.serve(hello, gate).catch((error: unknown) => {
      host.warn(`panescope: a connection could not be served: ${(error as Error).message}`);
      socket.destroy();
    });
  };
  // The client went away (killed, or ended its side): its calls are cancelled with the server.
  inner.onclose = () => {
    gate?.ended();
    socket.end();
  };
  socket.on("close", () => void inner.close());
  socket.on("error", () => socket.destroy());
  void inner.start();
}

/** The MCP server's transport: the socket's, with a named reader's cursors filled in and kept. */
export class ReaderGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  started = false;
  /**
   * Request id → the pane whose cursor its answer carries (undefined: an open_pane, whose pane is in
   * its answer), and why the reader's was lost, if it was.
   */
  private readonly tracked = new Map<string | number, { pane: string | undefined; loss: Loss | undefined }>();
  /** Request id → the release of its hold of the reader × pane, which its answer (or its cancel) ends. */
  private readonly holding = new Map<string | number, () => void>();
  /** The client went away: no answer can reach it, so none may move its reader's cursors. */
  private gone = false;

  constructor(
    private readonly inner: StdioTransport,
    private readonly readers: ReaderCursors,
    private readonly reader: string | undefined,
    private readonly early: Message[],
    private readonly busy = new BusyReaders(),
  ) {}

  async start(): Promise<void> {
    this.started = true;
    this.inner.onerror = (error) => this.onerror?.(error);
    for (const message of this.early.splice(0)) this.incoming(message);
  }

  /**
   * The socket's transport closed: the MCP server closes, which aborts its calls under way. An
   * answer that comes anyway reaches nobody, and moves no cursor of the reader.
   */
  ended(): void {
    this.gone = true;
    this.tracked.clear();
    for (const id of [...this.holding.keys()]) this.finish(id);
    this.onclose?.();
  }

  incoming(message: Message): void {
    // A cancelled call is never answered (the SDK sends nothing): its hold ends now.
    if (message.method === "notifications/cancelled" && message.id === undefined) {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") {
        this.tracked.delete(id);
        this.finish(id);
      }
    }
    const forwarded = this.reader === undefined ? message : this.withCursor(message);
    if (forwarded !== undefined) this.onmessage?.(forwarded); // else refused, and answered here
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.gone) return Promise.resolve();
    let answer = message as Message;
    const id = answer.id === undefined || answer.method !== undefined ? undefined : answer.id;
    const asked = id === undefined ? undefined : this.tracked.get(id);
    if (asked !== undefined && id !== undefined && this.reader !== undefined) {
      this.tracked.delete(id);
      if (asked.loss !== undefined) answer = toldForgotten(answer, asked.loss);
      const pane = asked.pane ?? openedPane(answer.result);
      if (pane !== undefined) this.keep(this.reader, pane, answer.result);
    }
    // The cursor is kept before the reader is let go: its next call starts from this answer.
    if (id !== undefined) this.finish(id);
    return this.inner.send(answer);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  /**
   * A cursor tool called on one pane without a cursor continues from the reader's last one. A pane
   * the reader opens starts it at the pane's first byte (open_pane's cursor): `id=$(panescope open
   * -- make); panescope wait $id --for DONE` sees what make printed before the wait, not only after.
   */
  private withCursor(message: Message): Message | undefined {
    if (!isRequest(message) || message.method !== "tools/call" || this.reader === undefined) return message;
    const params = message.params ?? {};
    if (params.name === "open_pane") {
      this.tracked.set(message.id, { pane: undefined, loss: undefined });
      return message;
    }
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    if (!CURSOR_TOOLS.has(String(params.name)) || typeof args.paneId !== "string") return message;
    if (args.cursor !== undefined || args.cursors !== undefined || args.paneIds !== undefined) return message;
    const pane = canonicalPaneId(args.paneId);
    // Keys alone while the reader's call runs (`panescope wait %1 &`, then `panescope send %1 …`):
    // typed, and the reader's cursor left to that call, which shows what they print.
    if (params.name === "send_keys" && args.wait === undefined && this.busy.holds(this.reader, pane)) return message;
    if (!this.hold(message.id, this.reader, pane, String(params.name))) return undefined;
    const stored = this.readers.get(this.reader, pane);
    this.tracked.set(message.id, { pane, loss: stored === undefined ? this.readers.loss(this.reader, pane) : undefined });
    if (stored === undefined) return message;
    return { ...message, params: { ...params, arguments: { ...args, cursor: stored } } } as Message;
  }

  /**
   * Takes the reader × pane for the call `id` until its answer; false, with the call answered
   * here (refused, never run), when another call of the reader holds it.
   */
  private hold(id: string | number, reader: string, pane: string, tool: string): boolean {
    const claim = this.busy.claim(reader, pane, tool);
    if ("busy" in claim) {
      void this.inner.send({ jsonrpc: "2.0", id, result: fail(new PanescopeError("not-allowed", busyMessage(reader, pane, claim.busy))) } as JSONRPCMessage);
      return false;
    }
    const holder: Holder = claim.taken;
    this.holding.set(id, () => this.busy.release(reader, pane, holder));
    return true;
  }

  /** The call `id` answered or cancelled: its reader × pane is free again. */
  private finish(id: string | number): void {
    const release = this.holding.get(id);
    this.holding.delete(id);
    release?.();
  }

  private keep(reader: string, pane: string, result: Record<string, unknown> | undefined): void {
    if (result === undefined) return;
    if (result.isError === true) {
      // A stored cursor refused (another server's after a restart on another socket): start over.
      const kind = (result._meta as Record<string, unknown> | undefined)?.["panescope/error"];
      if (typeof kind === "string" && kind.startsWith("cursor-")) this.readers.forget(reader, pane);
      return;
    }
    const structured = (result.structuredContent ?? {}) as { cursor?: unknown; delta?: { cursor?: unknown } };
    const cursor = structured.delta?.cursor ?? structured.cursor;
    if (typeof cursor === "string") this.readers.set(reader, pane, cursor);
  }
}

/** The pane an open_pane answer names (canonical), if it opened one. */
function openedPane(result: Record<string, unknown> | undefined): string | undefined {
  const paneId = (result?.structuredContent as { paneId?: unknown } | undefined)?.paneId;
  return result?.isError !== true && typeof paneId === "string" ? canonicalPaneId(paneId) : undefined;
}

/** What the answer to a reader whose cursor was let go or lost (readers.ts) says of it. */
const FORGOTTEN: Record<Loss, string> = {
  bound: "missed: forgotten (the daemon let this reader's cursor of the pane go: more reader × pane cursors than it keeps were used since): from the screen now",
  unread: "missed: forgotten (the daemon could not read this reader's saved cursor of the pane back: its log says why): from the screen now",
  unsure:
    "missed: forgotten (the daemon could not read its saved cursors back, its log says why, and cannot tell whether this reader read the pane before: if it did, what came since is lost): from the screen now",
};

/**
 * The answer to a reader whose kept cursor was let go or lost: it starts from the screen, as a new
 * reader's first read does, so it says it missed what came since (never silently from scratch).
 */
function toldForgotten(answer: Message, loss: Loss): Message {
  const result = answer.result;
  if (result === undefined || result.isError === true) return answer;
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const nested = structured?.delta as Record<string, unknown> | undefined;
  const delta = nested ?? structured;
  const flagged = delta !== undefined && delta.missed === false ? { ...delta, missed: true, reason: "forgotten" } : delta;
  const content = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  const [first, ...rest] = content;
  const told = first?.type === "text" ? [{ ...first, text: `${FORGOTTEN[loss]}\n${first.text ?? ""}` }, ...rest] : [{ type: "text", text: FORGOTTEN[loss] }, ...content];
  const newStructured = structured === undefined ? undefined : nested !== undefined ? { ...structured, delta: flagged } : flagged;
  return { ...answer, result: { ...result, content: told, ...(newStructured === undefined ? {} : { structuredContent: newStructured }) } } as Message;
}
