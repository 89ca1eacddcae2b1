// tools/call's params, checked before the SDK's schema sees them. The SDK parses a request before
// any handler runs and answers a parse failure as -32603 (Internal error) with zod's issues as
// JSON, for a mistake that is the caller's. Here: a tools/call that names no tool is -32602
// (Invalid params) with what to send; a tool name that is not one, or arguments that are not an
// object, are a bad-input result, as every other mistake in a tool's arguments is (tool-list.ts):
// the agent reads what to fix, in the answer it reads anyway.
import { CallToolRequestSchema, ErrorCode, type CallToolRequest, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { PanescopeError } from "../errors.js";
import { nearest } from "../nearest.js";
import { fail } from "./results.js";

/** unchecked-results.ts's ToolCallHandler (which imports this file). */
type ToolCallHandler = (request: CallToolRequest, extra: unknown) => Promise<CallToolResult>;

/** tools/call as the SDK's Protocol parses it here: any params (callRequest checks them). */
export const AnyCallToolRequestSchema = CallToolRequestSchema.extend({ params: z.unknown() });

/** A JSON-RPC error the SDK sends as it is: its code, and its message without a prefix. */
export function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

/** A value named for a message: "a string", "an array", "null". */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The tools/call `request` as the SDK's schema parses it; one whose only fault is its arguments
 * as it came (argumentsRefusal answers it). Throws -32602 when it names no tool or another
 * member is wrong.
 */
export function callRequest(request: unknown): CallToolRequest {
  const params = (request as { params?: unknown }).params;
  if (!isObject(params)) throw invalidParams(`tools/call needs params {"name": TOOL, "arguments": {...}}; params is ${params === undefined ? "missing" : kindOf(params)}`);
  if (typeof params.name !== "string") throw invalidParams(`tools/call needs params.name, a tool's name as a string (tools/list lists them); it is ${params.name === undefined ? "missing" : kindOf(params.name)}`);
  const parsed = CallToolRequestSchema.safeParse(request);
  if (parsed.success) return parsed.data;
  const elsewhere = parsed.error.issues.filter((issue) => issue.path[1] !== "arguments");
  if (elsewhere.length === 0) return request as CallToolRequest;
  throw invalidParams(`tools/call params are not valid: ${elsewhere.map((issue) => `${issue.message} (at ${issue.path.join(".")})`).join("; ")}`);
}

/** The bad-input result of a call to a tool that is not one of `tools`, or with arguments that are not an object; undefined: neither. */
export function callRefusal(request: CallToolRequest, tools: readonly string[]): CallToolResult | undefined {
  const tool = request.params.name;
  if (!tools.includes(tool)) {
    const guess = nearest(tool, tools);
    return fail(new PanescopeError("bad-input", `tool ${JSON.stringify(tool.slice(0, 64))} not found${guess ? ` (did you mean "${guess}"?)` : ""}: this server's tools are ${[...tools].sort().join(", ")}`));
  }
  const args: unknown = request.params.arguments;
  if (args === undefined || isObject(args)) return undefined;
  return fail(new PanescopeError("bad-input", `the arguments of ${tool} must be an object of named arguments ({"name": value, ...}), not ${kindOf(args)}: tools/list shows what ${tool} takes`));
}

/** `handler`, with the calls callRefusal refuses answered by it. */
export function refusingBadCalls(handler: ToolCallHandler, tools: () => readonly string[]): ToolCallHandler {
  return (request, extra) => {
    const refused = callRefusal(request, tools());
    return refused === undefined ? handler(request, extra) : Promise.resolve(refused);
  };
}
