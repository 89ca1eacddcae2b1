// tools/list, compact: every conversation pays for the tool list before its first call
// (docs/benchmarks.md, history). Built from the same zod schemas the SDK validates calls with, as JSON
// Schema without what every entry would repeat: the dialect marker ($schema; the keywords used
// read the same in draft-07 and MCP's default 2020-12), the ±2^53 bounds zod adds to every
// integer, `additionalProperties: false` on answers (a reader learns nothing from it), and the
// default execution hint. The handler replaces the SDK's (Server.setRequestHandler replaces).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { PanescopeError } from "../errors.js";
import { fail } from "./results.js";
import { unknownArguments } from "./strict.js";

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: z.ZodRawShape;
  outputSchema?: z.ZodType | z.ZodRawShape;
  annotations?: ToolAnnotations;
}

type Json = Record<string, unknown>;

const isEmpty = (value: unknown): boolean => typeof value === "object" && value !== null && Object.keys(value).length === 0;

function jsonSchema(schema: z.ZodType | z.ZodRawShape, io: "input" | "output"): Tool["inputSchema"] {
  const object = schema instanceof z.ZodType ? schema : z.object(schema);
  const json = z.toJSONSchema(object, {
    io,
    target: "draft-7",
    override: ({ jsonSchema: node }) => {
      const n = node as Json;
      if (n.maximum === Number.MAX_SAFE_INTEGER) delete n.maximum;
      if (n.minimum === Number.MIN_SAFE_INTEGER) delete n.minimum;
      if (io === "output" && n.additionalProperties === false) delete n.additionalProperties;
      // Inputs are strict (strict.ts refuses unknown names), also where the schema is loose to let them through.
      // Not on a record (no properties): its additionalProperties is the schema of its values.
      if (io === "input" && n.type === "object" && n.properties !== undefined && !isEmpty(n.properties)) n.additionalProperties = false;
      // A loose object with no fields of its own: just an object.
      if (n.type === "object" && isEmpty(n.properties) && isEmpty(n.additionalProperties)) {
        delete n.properties;
        delete n.additionalProperties;
      }
    },
  }) as Json;
  delete json.$schema;
  return json as Tool["inputSchema"];
}

/** Zod's issues in a line: "maxBytes must be at least 1 (at maxBytes)". */
function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length === 0 ? messageOfIssue(issue) : `${messageOfIssue(issue)} (at ${issue.path.join(".")})`)).join("; ");
}

/** zod says only "Invalid key in record" of a bad key: the key schema's own message says what to do. */
function messageOfIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_key" && issue.issues.length > 0) return issue.issues.map((inner) => inner.message).join("; ");
  return issue.message;
}

export function toolList(tools: readonly ListedTool[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema ? jsonSchema(tool.inputSchema, "input") : { type: "object", properties: {} },
    ...(tool.outputSchema ? { outputSchema: jsonSchema(tool.outputSchema, "output") } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  }));
}

/**
 * A host for ToolRegistrars that records what each registers, then serves tools/list from those
 * records. Call `serve` once every tool is registered.
 *
 * The output schemas are advertised, not handed to the SDK: it would parse every answer against
 * them again (asynchronously, zod's slow path) on every wake. The answers are
 * built by typed code, and the tests' MCP clients list the tools first, so they check every answer
 * against what is advertised.
 *
 * Every tool's arguments are checked here, names first: an unknown name is refused with the valid
 * ones (strict.ts; the SDK's own z.object would drop a misspelt name without a word, and would
 * refuse a missing paneId before saying that `bogus` is not an argument at all), then the values
 * against the shape. Both refusals are bad-input results whose text says what to fix.
 */
export function listingHost(mcp: McpServer): { host: Pick<McpServer, "registerTool">; serve(): void; names(): string[] } {
  const tools: ListedTool[] = [];
  const registerTool: McpServer["registerTool"] = (name, config, callback) => {
    tools.push({ name, ...config } as ListedTool);
    const { outputSchema: _advertised, inputSchema: shape = {}, ...served } = config;
    const schema = z.object(shape as z.ZodRawShape);
    const checked = (async (args: unknown, extra: unknown) => {
      const problem = unknownArguments(args, shape as Record<string, unknown>, name);
      if (problem) return fail(new PanescopeError("bad-input", problem));
      const parsed = await schema.safeParseAsync(args ?? {});
      if (!parsed.success) return fail(new PanescopeError("bad-input", `invalid arguments for ${name}: ${issuesOf(parsed.error)}`));
      return (callback as (args: unknown, extra: unknown) => unknown)(parsed.data, extra);
    }) as unknown as typeof callback;
    // Served as an open object: the names are checked first (above), then the values, by the shape.
    return mcp.registerTool(name, { ...served, inputSchema: z.looseObject({}) } as unknown as typeof config, checked);
  };
  return {
    host: { registerTool },
    serve: () => mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList(tools) })),
    names: () => tools.map((tool) => tool.name),
  };
}
