// Requests go straight to the SDK's request dispatch. Protocol's own onmessage first tests every
// message against the two response schemas, and for a request both tests fail: zod then builds
// their issues and messages, ≈0.28 ms after an idle spell on the 2-core VM (0.03 warm), about a
// third of an idle read's round trip (docs/benchmarks.md, history). A plain request (the members
// JSON-RPC gives one, no _meta) is told apart here without zod; every other message, and every
// message of an SDK without that dispatch, takes the SDK's own path.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";

type Extra = Parameters<NonNullable<Transport["onmessage"]>>[1];

const REQUEST_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * True only for what the SDK's JSONRPCRequestSchema accepts unchanged and Protocol hands to its
 * request dispatch: jsonrpc "2.0", an id (string or safe integer), a method, params an object
 * without _meta (that one has rules of its own: zod checks it), no other member.
 */
export function plainRequest(value: unknown): value is JSONRPCRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") return false;
  if (typeof message.id !== "string" && !Number.isSafeInteger(message.id)) return false;
  const params = message.params;
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params) || "_meta" in params)) return false;
  for (const member in message) if (!REQUEST_MEMBERS.has(member)) return false;
  return true;
}

/**
 * A request whose only possible fault is its params: a plain one, or one whose params are an array
 * or an object with any _meta. The SDK would call it no JSON-RPC message at all (-32600, or no
 * answer); its method's handler answers it instead: -32601 if there is none, else -32602 if the
 * params are wrong (params-check.ts). Params that are not a structured value stay -32600 (JSON-RPC).
 */
export function paramsRequest(value: unknown): value is JSONRPCRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { params, ...rest } = value as Record<string, unknown>;
  return (params === undefined || (typeof params === "object" && params !== null)) && plainRequest(rest);
}

/** mcp.connect(transport), then plain requests skip the response tests (see the top). */
export async function connectRouted(mcp: McpServer, transport: Transport): Promise<void> {
  // A handler set before connect is one the SDK calls first for every message: keep its path.
  const own = transport.onmessage;
  await mcp.connect(transport);
  const protocol = mcp.server as unknown as { _onrequest?: (request: JSONRPCRequest, extra?: Extra) => void };
  const dispatch = protocol._onrequest;
  const sdk = transport.onmessage;
  if (own !== undefined || sdk === undefined || typeof dispatch !== "function") return;
  transport.onmessage = (message, extra) => {
    if (plainRequest(message) || paramsRequest(message)) dispatch.call(protocol, message, extra);
    else sdk(message, extra);
  };
}
