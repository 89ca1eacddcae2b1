// The SDK's Server re-checks every tools/call exchange it hands to McpServer's handler: it parses
// the request again (Protocol already parsed it with the same schema) and parses the result against
// CallToolResultSchema, sending the parsed copy: a tenth of a wake's answer (docs/benchmarks.md,
// history). panescope's results come from ok() and fail() (results.ts), typed as
// CallToolResult, and every test client checks what it receives; so tools/call is installed the
// way every other method is (Protocol's own setRequestHandler, which still parses each request).
// It is also the one place every tool call passes: a transcript (--transcript) wraps it here, and
// its params are checked here, not by the SDK's parse (call-request.ts).
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, type CallToolRequest, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AnyCallToolRequestSchema, callRequest } from "./call-request.js";

/** The tools/call handler as McpServer installs it. */
export type ToolCallHandler = (request: CallToolRequest, extra: unknown) => Promise<CallToolResult>;

/** Call before the first registerTool (McpServer installs its tools/call handler then). */
export function skipResultRecheck(mcp: McpServer, wrapCall: (handler: ToolCallHandler) => ToolCallHandler = (handler) => handler): void {
  const server = mcp.server;
  const install = server.setRequestHandler.bind(server);
  const direct = Protocol.prototype.setRequestHandler;
  server.setRequestHandler = ((schema: unknown, handler: unknown) => {
    const call = direct as (this: unknown, schema: unknown, handler: unknown) => void;
    const wrap = install as (schema: unknown, handler: unknown) => void;
    if (schema !== CallToolRequestSchema) return void wrap(schema, handler);
    const wrapped = wrapCall(handler as ToolCallHandler);
    call.call(server, AnyCallToolRequestSchema, (request: unknown, extra: unknown) => wrapped(callRequest(request), extra));
  }) as typeof server.setRequestHandler;
}
