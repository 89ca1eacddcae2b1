// The one request the front answers itself (front.ts): a capture_since with a cursor and no wait,
// told apart without zod or the SDK. Anything else, or anything this does not accept exactly as
// capture_since's schema would, goes to the engine thread, whose answer (an error included) is the
// server's; so this may refuse what the schema accepts, never the other way round.
import type { JSONRPCResponse, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { plainRequest } from "../request-route.js";
import { MAX_BYTES, MAX_CURSOR_CHARS, MAX_LINES, type LimitInput } from "../limits.js";
import type { View } from "../render.js";

export interface PlainRead extends LimitInput {
  /** The JSON-RPC id, answered as it came. */
  id: string | number;
  cursor: string;
  paneId?: string;
}

const ARGUMENTS = new Set(["cursor", "paneId", "maxLines", "maxBytes", "view", "waitMs"]);
const VIEWS = new Set<unknown>(["rows", "raw", "both"]);
/** Canonical ids only (`%7`, not `%07`): the schema rewrites the others, the engine does it. */
const PANE_ID = /^%(0|[1-9]\d{0,8})$/;

/** The read in `line`, when it is a plain capture_since the front may answer; else undefined. */
export function plainRead(line: string): PlainRead | undefined {
  // Cheap first: most lines the front sees while a flood is read are reads, the rest pass on.
  if (!line.includes('"capture_since"')) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!plainRequest(message) || message.method !== "tools/call") return undefined;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (params?.name !== "capture_since" || Object.keys(params).some((key) => key !== "name" && key !== "arguments")) return undefined;
  const input = params.arguments;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const args = input as Record<string, unknown>;
  if (!Object.keys(args).every((key) => ARGUMENTS.has(key))) return undefined;
  const { cursor, paneId, maxLines, maxBytes, view, waitMs } = args;
  if (typeof cursor !== "string" || cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS) return undefined;
  if (paneId !== undefined && (typeof paneId !== "string" || !PANE_ID.test(paneId))) return undefined;
  if (waitMs !== undefined && waitMs !== 0) return undefined;
  if (maxLines !== undefined && !within(maxLines, 0, MAX_LINES)) return undefined;
  if (maxBytes !== undefined && !within(maxBytes, 1, MAX_BYTES)) return undefined;
  if (view !== undefined && !VIEWS.has(view)) return undefined;
  return {
    id: message.id,
    cursor,
    ...(paneId === undefined ? {} : { paneId: paneId as string }),
    ...(maxLines === undefined ? {} : { maxLines: maxLines as number }),
    ...(maxBytes === undefined ? {} : { maxBytes: maxBytes as number }),
    ...(view === undefined ? {} : { view: view as View }),
  };
}

/** The JSON-RPC line that answers `read` with `result`. */
export function answerLine(read: PlainRead, result: CallToolResult): string {
  const response: JSONRPCResponse = { jsonrpc: "2.0", id: read.id, result };
  return `${JSON.stringify(response)}\n`;
}

function within(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
