// The MCP stdio transport panescope serves on: newline-delimited JSON-RPC through the bounded
// StdioFramer. A line it cannot use (over the size limit, not JSON, not JSON-RPC) is answered with a
// JSON-RPC error when it is a request whose id can be read cheaply, else named in one stderr line;
// either way the server keeps serving. A batch (a JSON array) is answered with one array line in a
// session whose protocol version has batches, else refused with one error (batch.ts). The end of
// stdin closes the transport once every request read before it has been answered (`echo REQUEST |
// panescope` gets its answer). While stdout does not drain (a client that stops reading), stdin is
// not read: answers never pile up without bound.
import type { Readable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "../errors.js";
import { batchMember, batchRefusal, errorJson, INVALID_REQUEST, MAX_BATCH_ANSWER_BYTES, OpenBatches, SessionVersion, type Answered } from "./batch.js";
import { InputHold, NOT_READING_NOTICE } from "./input-hold.js";
import { paramsRequest, plainRequest } from "./request-route.js";
import { DEFAULT_MAX_LINE_BYTES, KEPT_BYTES, StdioFramer } from "./stdio-framer.js";

export interface StdioTransportOptions {
  maxLineBytes?: number;
  /** One line to stderr (default: process.stderr, prefixed "panescope: "). */
  warn?: (line: string) => void;
  /**
   * Say once on stderr when the client stops reading (default true). The engine thread's answers
   * go to the front, not to the client: the front says it (engine/front.ts).
   */
  sayNotReading?: boolean;
}

/** JSON-RPC 2.0's parse error (the spec's code). */
const PARSE_ERROR = -32700;

type Id = string | number;

// A top-level member with a simple value: "key": number | string without escapes | true/false/null.
const SIMPLE = String.raw`"([A-Za-z_]+)"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"[^"\\]{0,256}"|true|false|null)`;
const HEAD_MEMBER = new RegExp(String.raw`^\s*${SIMPLE}\s*,`);
const TAIL_MEMBER = new RegExp(String.raw`,\s*${SIMPLE}\s*` + "$");

/**
 * The id of a JSON-RPC request from the text at the two ends of a line it cannot parse whole: the
 * simple members right after the opening `{` and right before the closing `}` are top-level ones
 * (nested objects and escaped strings stop the scan). Undefined unless a `method` shows it is a
 * request: an error must never answer a response or a notification.
 */
export function salvageRequestId(head: string, tail: string): Id | undefined {
  const members = new Map<string, string>();
  let rest = head.replace(/^\s*\{/, "");
  if (rest.length === head.length) return undefined;
  for (let m = HEAD_MEMBER.exec(rest); m !== null; m = HEAD_MEMBER.exec(rest)) {
    members.set(m[1] ?? "", m[2] ?? "");
    rest = rest.slice(m[0].length);
  }
  let end = tail.replace(/\}\s*$/, "");
  if (end.length !== tail.length) {
    for (let m = TAIL_MEMBER.exec(end); m !== null; m = TAIL_MEMBER.exec(end)) {
      members.set(m[1] ?? "", m[2] ?? "");
      end = end.slice(0, m.index);
    }
  }
  const id = members.get("id");
  if (id === undefined || !members.get("method")?.startsWith('"')) return undefined;
  const value: unknown = JSON.parse(id);
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value)) ? value : undefined;
}

/** Where answers go: process.stdout, or the engine thread's share of it (engine/shared-stdout.ts). */
export interface AnswerSink {
  write(line: string): boolean;
  once(event: "drain", listener: () => void): unknown;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly framer: StdioFramer;
  private readonly warn: (line: string) => void;
  private started = false;
  private closed = false;
  /**
   * Requests read and not answered yet, counted by id: stdin's end waits for them. Counted, not a
   * set: a client that reuses an id in flight (JSON-RPC forbids it) had its second request dropped
   * unanswered when stdin ended after the first answer.
   */
  private readonly unanswered = new Map<Id, number>();
  private stdinEnded = false;
  /**
   * Answers waiting for stdout's 'drain': one listener for them all (one each passed Node's limit
   * of 10 and warned). Meanwhile stdin is held: no new request adds to them.
   */
  private draining: Array<() => void> | undefined;
  private readonly input: InputHold;
  private notReadingSaid: boolean;
  /** The session's MCP protocol version: it decides whether a batch is answered. */
  private readonly session = new SessionVersion();
  private readonly batches = new OpenBatches();

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: AnswerSink = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    this.framer = new StdioFramer(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.warn = options.warn ?? ((line) => void process.stderr.write(`panescope: ${line}\n`));
    this.input = new InputHold(stdin);
    this.notReadingSaid = options.sayNotReading === false;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("StdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
    this.stdin.on("end", this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const answers = !("method" in message) && "id" in message ? message.id : undefined;
    if (answers !== undefined && this.session.initializing) this.session.answered(answers, message);
    if (answers !== undefined && this.batches.waits(answers)) return this.answeredInBatch(answers, this.batches.answer(answers, JSON.stringify(message)));
    const written = this.write(serializeMessage(message));
    if (answers === undefined || !this.settle(answers)) return written;
    return written.then(() => this.closeIfDone());
  }

  /** Writes `line`; resolves once stdout took it, or at its next 'drain', until which stdin is not read. */
  private write(line: string): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.stdout.write(line)) return resolve();
      if (this.draining) return void this.draining.push(resolve);
      this.draining = [resolve];
      this.input.hold("answers");
      if (!this.notReadingSaid) this.warn(NOT_READING_NOTICE);
      this.notReadingSaid = true;
      this.stdout.once("drain", () => {
        const waiting = this.draining ?? [];
        this.draining = undefined;
        // Closed: stdin stays paused, as close() left it.
        if (!this.closed) this.input.release("answers");
        for (const done of waiting) done();
      });
    });
  }

  /** One request `id` needs no answer any more (answered, cancelled); false if none was waiting. */
  private settle(id: Id): boolean {
    const count = this.unanswered.get(id);
    if (count === undefined) return false;
    if (count > 1) this.unanswered.set(id, count - 1);
    else this.unanswered.delete(id);
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    this.stdin.off("end", this.onEnd);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.framer.end();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const framed of this.framer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) {
      if (framed.kind === "line") this.receive(framed.text);
      else this.refuse(framed.bytes, framed.head, framed.tail, `is over this server's limit of ${this.framer.maxLineBytes} bytes per message (send less, e.g. long text in parts)`, INVALID_REQUEST);
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** The requests have ended (as at stdin's end): close once each one read is answered. */
  endOfRequests(): void {
    this.onEnd();
  }

  private readonly onEnd = (): void => {
    const dropped = this.framer.end();
    if (dropped > 0) this.warn(`stdin ended inside a message (${dropped} bytes without a newline): ignored`);
    this.stdinEnded = true;
    this.closeIfDone();
  };

  /** After stdin's end, close once the last request read has been answered. */
  private closeIfDone(): void {
    if (this.stdinEnded && this.unanswered.size === 0) void this.close();
  }

  private receive(text: string): void {
    let message: JSONRPCMessage | unknown[];
    try {
      // What the SDK's deserializeMessage does, without zod for a plain request (request-route.ts).
      const value: unknown = JSON.parse(text);
      // A request whose params the schema refuses goes on: its method's handler says what is wrong (-32602).
      message = plainRequest(value) || paramsRequest(value) || Array.isArray(value) ? value : (JSONRPCMessageSchema.parse(value) as JSONRPCMessage);
    } catch (error) {
      const notJson = error instanceof SyntaxError;
      const why = notJson ? `is not JSON (${messageOf(error)})` : "is not a JSON-RPC 2.0 message";
      this.refuse(Buffer.byteLength(text), text.slice(0, KEPT_BYTES), text.slice(-KEPT_BYTES), why, notJson ? PARSE_ERROR : INVALID_REQUEST);
      return;
    }
    if (Array.isArray(message)) this.receiveBatch(message, Buffer.byteLength(text));
    else this.deliver(message);
  }

  private deliver(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      this.unanswered.set(message.id, (this.unanswered.get(message.id) ?? 0) + 1);
      if (message.method === "initialize") this.session.initialize(message.id, message.params);
    }
    this.onmessage?.(message);
    // A cancelled request gets no answer (MCP): stop waiting for one.
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id !== "string" && typeof id !== "number") return;
      if (this.batches.waits(id)) void this.answeredInBatch(id, this.batches.answer(id, undefined));
      else if (this.settle(id)) this.closeIfDone();
    }
  }

  /**
   * A JSON array: refused whole with one error (id null) when the session has no batches, or it is
   * empty or too long; else each member is delivered as a line of its own would be, and the answers
   * to its requests (its invalid members' errors first) go out as one array once the last has come.
   */
  private receiveBatch(values: unknown[], bytes: number): void {
    const refused = batchRefusal(this.session.version, values.length);
    if (refused !== undefined) {
      this.warn(`answered a ${bytes}-byte JSON-RPC batch of ${values.length} message${values.length === 1 ? "" : "s"} with an error: ${refused}`);
      void this.write(`${errorJson(null, INVALID_REQUEST, refused)}\n`);
      return;
    }
    const messages: JSONRPCMessage[] = [];
    const errors: string[] = [];
    values.forEach((value, index) => {
      const member = batchMember(value, index);
      if ("error" in member) errors.push(member.error);
      else messages.push(member.message);
    });
    // Every request is expected before any is delivered: an answer may come while onmessage runs.
    const ids = messages.flatMap((message) => ("method" in message && "id" in message ? [message.id] : []));
    const opened = this.batches.open(ids, errors);
    for (const message of messages) this.deliver(message);
    if (opened.line !== undefined) void this.write(opened.line);
  }

  /** Request `id` of a batch was answered or cancelled: the batch's line goes out once it is complete. */
  private answeredInBatch(id: Id, answered: Answered): Promise<void> {
    if (answered.dropped !== undefined) {
      this.warn(`answered request ${JSON.stringify(id)} of a batch with an error: its ${answered.dropped}-byte answer would take the open batches' answers past ${MAX_BATCH_ANSWER_BYTES} bytes`);
    }
    this.settle(id);
    if (!answered.complete) return Promise.resolve();
    if (answered.line === undefined) {
      this.closeIfDone();
      return Promise.resolve();
    }
    return this.write(answered.line).then(() => this.closeIfDone());
  }

  /**
   * Answers an unusable line with an error if it is a request with a readable id, or a batch (id
   * null: its client may wait for an answer), else says so on stderr.
   */
  private refuse(bytes: number, head: string, tail: string, why: string, code: number): void {
    const id = salvageRequestId(head, tail);
    if (id === undefined && head.trimStart().startsWith("[")) {
      const refused = batchRefusal(this.session.version, 1);
      const message = refused ?? `this ${bytes}-byte JSON-RPC batch ${why}`;
      this.warn(`answered a ${bytes}-byte JSON-RPC batch with an error: ${message}`);
      void this.write(`${errorJson(null, refused === undefined ? code : INVALID_REQUEST, message)}\n`);
      return;
    }
    if (id === undefined) {
      this.warn(`skipped a ${bytes}-byte message on stdin that ${why}; it names no request id to answer`);
      return;
    }
    this.warn(`answered request ${JSON.stringify(id)} with an error: its ${bytes}-byte message ${why}`);
    void this.send({ jsonrpc: "2.0", id, error: { code, message: `this ${bytes}-byte request ${why}` } });
  }
}
