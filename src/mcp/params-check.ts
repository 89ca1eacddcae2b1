// Malformed params of every method the server registers are JSON-RPC -32602 (Invalid params), saying
// which field is wrong and what to send. The SDK's Protocol parses a request with its method's
// schema just before the handler and answered a failed parse -32603 (Internal error) with zod's
// issues as JSON: the caller's mistake, told as the server's fault. tools/call's params are
// checked before that parse (call-request.ts); the other methods' failed parses are told here.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { invalidParams, kindOf } from "./call-request.js";

type Handler = (request: { params?: unknown }, extra: unknown) => Promise<unknown>;
type Issue = z.core.$ZodIssue;

/** Issues told in a message at most (a wrong initialize can have a dozen). */
const TOLD = 3;

/** Every request handler of `mcp`'s server, those registered later included, answering a failed params parse -32602. */
export function checkParams(mcp: McpServer): void {
  const protocol = mcp.server as unknown as { _requestHandlers?: unknown };
  // An SDK without this map keeps its own answers.
  if (protocol._requestHandlers instanceof Map) protocol._requestHandlers = new CheckedHandlers(protocol._requestHandlers as Map<string, Handler>);
}

/** The SDK's map of handlers by method; each set here is wrapped (Server.setRequestHandler replaces through set). */
class CheckedHandlers extends Map<string, Handler> {
  constructor(handlers: Map<string, Handler>) {
    super();
    for (const [method, handler] of handlers) this.set(method, handler);
  }

  override set(method: string, handler: Handler): this {
    return super.set(method, (request, extra) => {
      try {
        // The SDK's handler parses the request synchronously, before it calls the registered one.
        return handler(request, extra);
      } catch (error) {
        if (!(error instanceof z.core.$ZodError) || !error.issues.every((issue) => issue.path[0] === "params")) throw error;
        throw invalidParams(paramsProblem(method, error.issues, request));
      }
    });
  }
}

/** "tools/list: params.cursor must be a string, not a number". */
export function paramsProblem(method: string, issues: readonly Issue[], request: unknown): string {
  const told = issues.slice(0, TOLD).map((issue) => said(issue, request));
  const more = issues.length > TOLD ? ` (and ${issues.length - TOLD} more)` : "";
  return `${method}: ${told.join("; ")}${more}`;
}

function said(issue: Issue, request: unknown): string {
  const field = issue.path.map(String).join(".");
  const value = issue.path.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined), request);
  const wanted = expected(issue);
  if (wanted !== undefined) return value === undefined ? `${field} is missing: send ${wanted}` : `${field} must be ${wanted}, not ${kindOf(value)}`;
  if (issue.code === "invalid_value") return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, not ${JSON.stringify(value)?.slice(0, 40) ?? kindOf(value)}`;
  return `${field}: ${issue.message}`;
}

/** What a type issue wants ("a string"; "a string or a number" for a union of types); undefined: not a type issue. */
function expected(issue: Issue): string | undefined {
  if (issue.code === "invalid_type") return `${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
  if (issue.code !== "invalid_union") return undefined;
  const each = issue.errors.map((branch) => (branch.length === 1 && branch[0]?.path.length === 0 ? expected(branch[0]) : undefined));
  return each.every((one) => one !== undefined) && each.length > 0 ? each.join(" or ") : undefined;
}
