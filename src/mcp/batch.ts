// JSON-RPC 2.0 batches (§6) on the MCP stdio stream: which sessions take one (MCP 2025-03-26 and
// earlier; 2025-06-18 removed them), what answers one, and its bounds. Pure: values in, values out;
// the transport (stdio-transport.ts) reads the lines and writes the answers.
import { JSONRPCMessageSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { paramsRequest, plainRequest } from "./request-route.js";

/** JSON-RPC 2.0 error codes (the spec's). */
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

/** The last MCP protocol version with batches (2025-06-18 removed them). */
export const LAST_BATCH_VERSION = "2025-03-26";
/** Messages in one batch: more is refused whole (an answer of one error object each would be ~100× the line). */
export const MAX_BATCH_MEMBERS = 1000;
/**
 * Answers held for batches not yet complete, all batches together: an answer past it is replaced by
 * an error saying to send that request alone (one read may answer 4 MiB, and a batch waits for its slowest).
 */
export const MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;

type Id = string | number;

/** The version the server answers `initialize` with (the SDK's Server._oninitialize, 1.32): the one asked for if served, else its latest. */
export function negotiatedVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The MCP protocol version of a session (undefined before initialize). Taken from an initialize as
 * it is read (in the split server a batch may follow the engine's copy in one chunk, before its
 * answer), then from its answer; an initialize answered with an error leaves the version before it.
 */
export class SessionVersion {
  version: string | undefined;
  /** Each initialize not answered yet, and the version before it. */
  private readonly asked = new Map<Id, string | undefined>();

  get initializing(): boolean {
    return this.asked.size > 0;
  }

  initialize(id: Id, params: unknown): void {
    this.asked.set(id, this.version);
    const requested = (params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof requested === "string") this.version = negotiatedVersion(requested);
  }

  /** Any answer: if it answers an initialize, its version is the session's. */
  answered(id: Id, message: JSONRPCMessage): void {
    if (!this.asked.has(id)) return;
    const before = this.asked.get(id);
    this.asked.delete(id);
    const version = "result" in message ? (message.result as { protocolVersion?: unknown }).protocolVersion : undefined;
    this.version = typeof version === "string" ? version : before;
  }
}

/** Why a session on `version` (undefined: before initialize) refuses a batch of `members` messages; undefined: it takes it. */
export function batchRefusal(version: string | undefined, members: number): string | undefined {
  if (version === undefined) {
    return `a JSON-RPC batch came before initialize: MCP allows batches only once a session has negotiated version ${LAST_BATCH_VERSION} or earlier (initialize itself comes alone); send each message on its own line`;
  }
  // Versions are dates (YYYY-MM-DD): they compare as strings.
  if (version > LAST_BATCH_VERSION) {
    return `JSON-RPC batches are not part of MCP protocol version ${version}, which this session negotiated (they ended with ${LAST_BATCH_VERSION}); send each message on its own line`;
  }
  if (members === 0) return "an empty JSON-RPC batch is not a request (JSON-RPC 2.0 §6); send at least one message";
  if (members > MAX_BATCH_MEMBERS) {
    return `this JSON-RPC batch of ${members} messages is over this server's limit of ${MAX_BATCH_MEMBERS} per batch; send fewer in one batch, or each message on its own line`;
  }
  return undefined;
}

/** A JSON-RPC error answer, as one line of JSON without its newline. */
export function errorJson(id: Id | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
}

/**
 * A batch's member as the transport delivers it, or the error that answers it in the batch's array:
 * with its id when it reads as a request (a method and a usable id), else with id null (§5.1).
 */
export function batchMember(value: unknown, index: number): { message: JSONRPCMessage } | { error: string } {
  // A request whose only fault is its params goes on, as on a line of its own (request-route.ts).
  if (plainRequest(value) || paramsRequest(value)) return { message: value };
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data as JSONRPCMessage };
  const { id, method } = typeof value === "object" && value !== null ? (value as { id?: unknown; method?: unknown }) : {};
  const usable = typeof method === "string" && (typeof id === "string" || Number.isSafeInteger(id));
  return { error: errorJson(usable ? (id as Id) : null, INVALID_REQUEST, `member ${index} of this batch is not a JSON-RPC 2.0 message (a request has jsonrpc "2.0", a method and an id; a notification has no id)`) };
}

/** The error that stands for an answer a batch could not hold (MAX_BATCH_ANSWER_BYTES). */
export function droppedAnswer(id: Id, bytes: number): string {
  return errorJson(id, INTERNAL_ERROR, `the answer to this request (${bytes} bytes) was dropped: the answers of this server's open batches would pass ${MAX_BATCH_ANSWER_BYTES} bytes; send this request on its own line`);
}

/** What a batch's answer (or cancel) did: `line`, the batch's answer once it is complete (none: nothing to say). */
export interface Answered {
  complete: boolean;
  line?: string;
  /** The size of the answer replaced by an error (MAX_BATCH_ANSWER_BYTES). */
  dropped?: number;
}

/** One batch's answer: the answers to its requests as they come, one array line once the last has come. */
class BatchAnswer {
  /** The requests not answered yet, counted by id (a client may reuse one). */
  readonly waiting = new Map<Id, number>();
  /** Bytes of the answers held. */
  bytes = 0;

  constructor(readonly parts: string[]) {}

  /** The answer line (§6: one array, in any order); undefined when nothing is answered (notifications only, all cancelled). */
  line(): string | undefined {
    return this.parts.length === 0 ? undefined : `[${this.parts.join(",")}]\n`;
  }
}

/** The batches waiting for answers, by request id, and the answers they hold (MAX_BATCH_ANSWER_BYTES in all). */
export class OpenBatches {
  private readonly byId = new Map<Id, BatchAnswer[]>();
  private bytes = 0;

  /**
   * A batch of the requests `ids` whose invalid members are answered by `errors`. Complete at once
   * when it has no request: its line, if it has one, goes out now.
   */
  open(ids: readonly Id[], errors: string[]): Answered {
    const batch = new BatchAnswer(errors);
    for (const id of ids) {
      batch.waiting.set(id, (batch.waiting.get(id) ?? 0) + 1);
      const waiting = this.byId.get(id);
      if (waiting) waiting.push(batch);
      else this.byId.set(id, [batch]);
    }
    return ids.length === 0 ? this.complete(batch) : { complete: false };
  }

  /** Whether a batch waits for an answer to `id`. */
  waits(id: Id): boolean {
    return this.byId.has(id);
  }

  /**
   * Takes the answer to `id` (one JSON object without newline; undefined: the request was cancelled
   * and has none) into the oldest batch waiting for it, which waits for `waits(id)`.
   */
  answer(id: Id, json: string | undefined): Answered {
    const waiting = this.byId.get(id) ?? [];
    const batch = waiting[0];
    if (!batch) return { complete: false };
    const count = batch.waiting.get(id) ?? 0;
    if (count > 1) batch.waiting.set(id, count - 1);
    else {
      batch.waiting.delete(id);
      waiting.shift();
      if (waiting.length === 0) this.byId.delete(id);
    }
    let dropped: number | undefined;
    if (json !== undefined) {
      let bytes = Buffer.byteLength(json);
      if (this.bytes + bytes > MAX_BATCH_ANSWER_BYTES) {
        dropped = bytes;
        json = droppedAnswer(id, bytes);
        bytes = Buffer.byteLength(json);
      }
      batch.parts.push(json);
      batch.bytes += bytes;
      this.bytes += bytes;
    }
    const answered = batch.waiting.size === 0 ? this.complete(batch) : { complete: false };
    return dropped === undefined ? answered : { ...answered, dropped };
  }

  private complete(batch: BatchAnswer): Answered {
    this.bytes -= batch.bytes;
    const line = batch.line();
    return line === undefined ? { complete: true } : { complete: true, line };
  }
}
