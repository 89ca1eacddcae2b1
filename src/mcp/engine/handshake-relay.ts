// The front's side of the handshake (mcp/handshake.ts): it answers `initialize` and `tools/list`
// itself while the engine thread starts, and gives the engine a copy of each `initialize` (its
// server must know the client as the front's does), under an id of the front's own, whose answer
// it then drops from the engine's output. Pure: lines in, lines out.
import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { plainRequest } from "../request-route.js";

/** The methods the front answers; `initialize` goes to the engine too. */
const HANDSHAKE_METHODS = new Set(["initialize", "tools/list"]);
/** Ids of the engine's copies: no client's request is answered under one (they are strings the front makes). */
const COPY_ID = "panescope-front-handshake-";

export interface HandshakeHooks {
  /** Answers a handshake request (the front's server writes its answer line). */
  answer(request: JSONRPCRequest): void;
  /** Passes a copy of initialize (a line with its \n) to the engine, whose answer must come through the front. */
  toEngine(line: string): void;
  /** The answer to a copy came and was dropped. */
  dropped(): void;
  /** The handshake is over (tools/list answered): the engine may load the server. */
  over(): void;
}

export class HandshakeRelay {
  private readonly copies = new Set<string>();
  private made = 0;

  constructor(private readonly hooks: HandshakeHooks) {}

  /** Whether `line` is the handshake's notification, which the engine takes before it has loaded. */
  notification(line: string): boolean {
    if (!line.includes('"notifications/initialized"')) return false;
    try {
      return (JSON.parse(line) as { method?: unknown }).method === "notifications/initialized";
    } catch {
      return false;
    }
  }

  /** Answers `line` if it is a plain handshake request; false: someone else's. */
  take(line: string): boolean {
    // Cheap first: after the handshake, almost every line is a read.
    if (!line.includes('"initialize"') && !line.includes('"tools/list"')) return false;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return false;
    }
    if (!plainRequest(message) || !HANDSHAKE_METHODS.has(message.method)) return false;
    if (message.method === "initialize") {
      const id = `${COPY_ID}${this.made++}`;
      this.copies.add(id);
      this.hooks.toEngine(`${JSON.stringify({ ...message, id })}\n`);
    }
    this.hooks.answer(message);
    if (message.method === "tools/list") this.hooks.over();
    return true;
  }

  /** Whether an answer to a copy is still to come (filter has work). */
  get filtering(): boolean {
    return this.copies.size > 0;
  }

  /** `block` (whole lines of the engine's output) without the answers to the engine's copies. */
  filter(block: string): string {
    if (this.copies.size === 0) return block;
    const lines = block.split("\n");
    const kept = lines.filter((line) => !this.isCopyAnswer(line));
    return kept.length === lines.length ? block : kept.join("\n");
  }

  private isCopyAnswer(line: string): boolean {
    if (!line.includes(`"id":"${COPY_ID}`)) return false;
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      return false;
    }
    if (typeof id !== "string" || !this.copies.delete(id)) return false;
    this.hooks.dropped();
    return true;
  }
}
