// MCP-level fuzzing: every tool called with generated hostile arguments — values shaped by its JSON
// input schema, and out-of-schema ones (wrong types, huge strings, NUL, lone surrogates, negative,
// NaN and huge numbers, unknown fields, forged cursors) — against a live private tmux server.
// Properties: never an `internal` error or an output the server's own schema refuses, never a
// thrown call or an unhandled rejection, and a normal call still answers correctly afterwards.
// Seeded and reproducible: PANESCOPE_FUZZ_SEED=N PANESCOPE_FUZZ_RUNS=M npx vitest run test/mcp/fuzz.test.ts
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllServers, startServer, type TestServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const SEED = Number(process.env.PANESCOPE_FUZZ_SEED ?? 20_251_111);
const RUNS = Number(process.env.PANESCOPE_FUZZ_RUNS ?? 200);

let test: TestServer;
let mcp: Linked;
let tools: Tool[];
let control: string;
let target: string;
let cursors: string[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  // The control prints a known line, in a session no generated name reaches, and is panescope's
  // "own" pane (never typed into or closed): a normal call on it must answer correctly at the end.
  test = await startServer({ cols: 60, rows: 10, session: "control-session", command: "echo control ready; exec sleep 100000" });
  [control = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  // The target of send_keys: a raw cat, which runs nothing it is sent (no shell).
  [target = ""] = await test.run(["new-session", "-d", "-s", "main", "-x", "60", "-y", "10", "-P", "-F", "#{pane_id}", "stty raw; exec cat"]);
  mcp = await link(test.server, { ownPane: { paneId: control }, maxWaitMs: 40, matchBudgetMs: 40 });
  tools = (await mcp.client.listTools()).tools;
  const first = (await mcp.call("capture_since", { paneId: target })).structuredContent as { cursor: string };
  const other = (await mcp.call("capture_since", { paneId: control })).structuredContent as { cursor: string };
  cursors = [first.cursor, other.cursor];
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await mcp?.close();
  await killAllServers();
});

// ---- hostile values -------------------------------------------------------------------------

const hugeString = fc.constantFrom("x".repeat(1024 * 1024), "é".repeat(70_000), "%".repeat(100_000));
const nastyString = fc.oneof(
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("a", "\0", "\uD800", "\uDC00", "😀", "\u001b", ";", "%", "\n"), maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom("", "\0", "a\0b", "\uD800", "x\uDFFFy", "\uFFFF", "😀", "%", "%0", "%-1", "%99999999999", "-t", "--", ";", "\\;", "'\"`$(id)", "#{pane_id}", "\r\n", "\u001b[6n", "__proto__", "constructor") },
);
const nastyNumber = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0.5, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, Number.MIN_VALUE),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, "a"], { nested: { deep: [null] } }) },
  { weight: 1, arbitrary: hugeString },
);

/** Cursors: genuine ones, each with one character changed, cut short, or random look-alikes. */
function cursorValue(): fc.Arbitrary<string> {
  const genuine = fc.constantFrom(...cursors);
  const flipped = fc.tuple(genuine, fc.nat(), fc.constantFrom("A", "z", "0", "-", "_")).map(([c, i, ch]) => {
    const at = i % c.length;
    return c.slice(0, at) + (c[at] === ch ? "B" : ch) + c.slice(at + 1);
  });
  const cut = fc.tuple(genuine, fc.nat()).map(([c, n]) => c.slice(0, n % c.length));
  const lookAlike = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), minLength: 20, maxLength: 120 });
  return fc.oneof(genuine, flipped, cut, lookAlike);
}

const KEY_NAMES = ["Enter", "C-c", "M-x", "S-Up", "q", "C-Space", "é", "0x1b", "F12", "C-M-S-Home"];
const BAD_KEY_NAMES = ["S-a", "C-é", "M-0x10ffff", "F13", "0x80", "Bogus", "^a", "C-", ";"];
const PATTERNS = ["ready", "^control", "(a|a)*b", "(", "[", "\\", "(?<=x)y", "a{2,1}", "(?=(a+))", "\\p{L}+", "\\1(a)", ".*".repeat(40)];
const SAFE_COMMANDS = ["true", "cat", "sleep 2", "printf 'x\\ny\\n'", "exit 3", "/nonexistent/command"];

/** An in-schema value for one property of a tool's JSON input schema (its bounds respected). */
function validFor(name: string, schema: Record<string, unknown>): fc.Arbitrary<unknown> {
  if (name === "paneId") return fc.oneof({ weight: 4, arbitrary: fc.constant(target) }, { weight: 1, arbitrary: fc.constantFrom(control, "%0", "%1", "%2", "%999", "%123456789") });
  if (name === "cursor") return cursorValue();
  if (name === "pattern") return fc.oneof(fc.constantFrom(...PATTERNS), fc.string({ maxLength: 30 }), nastyString);
  if (name === "keys") {
    const good = fc.array(fc.constantFrom(...KEY_NAMES), { maxLength: 4 });
    return fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...BAD_KEY_NAMES), nastyString), { minLength: 1, maxLength: 3 }) });
  }
  if (name === "command") return fc.oneof(fc.constantFrom(...SAFE_COMMANDS), nastyString.map((s) => `printf %s '${s.replace(/'/g, "'\\''")}'`));
  if (name === "session") return fc.constantFrom("panescope", "fuzz", "main", "a-b_c");
  if (name === "cwd") return fc.constantFrom("/", "/tmp", "/nonexistent/dir", "/tmp/\0", "/\uD800");
  if (name === "env") return fc.dictionary(fc.constantFrom("A", "TERM", "LANG", "_X"), nastyString, { maxKeys: 3 });
  if (name === "text") return fc.oneof(nastyString, fc.string({ unit: "grapheme", maxLength: 200 }));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const min = typeof schema.minimum === "number" ? schema.minimum : 0;
  const max = typeof schema.maximum === "number" ? schema.maximum : 1e12;
  switch (schema.type) {
    case "integer":
      // Mostly small (sizes, counts, waits that finish), sometimes the bounds themselves.
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 200) }), fc.constantFrom(min, max));
    case "number":
      return fc.double({ min, max, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "string":
      return fc.string({ maxLength: 40 });
    default:
      return anyValue;
  }
}

/** Arguments for one tool: in-schema, with one field made hostile, with unknown fields, or anything. */
function argsFor(tool: Tool): fc.Arbitrary<Record<string, unknown>> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const names = Object.keys(properties);
  const required = (tool.inputSchema.required ?? []).filter((name) => names.includes(name));
  // Every field present, then optional ones dropped one time in four.
  const full = fc.record(Object.fromEntries(names.map((name) => [name, validFor(name, properties[name] ?? {})])));
  const keep = fc.array(fc.nat(3), { minLength: names.length, maxLength: names.length });
  const valid = fc.tuple(full, keep).map(([args, dice]) => Object.fromEntries(Object.entries(args).filter(([name], i) => required.includes(name) || dice[i] !== 0)));
  const hostileField = names.length === 0 ? fc.constant({}) : fc.record({ name: fc.constantFrom(...names), value: anyValue }).map(({ name, value }) => ({ [name]: value }));
  const unknownFields = fc.dictionary(fc.constantFrom("extra", "__proto__", "toString", "paneid", "constructor"), anyValue, { minKeys: 1, maxKeys: 2 });
  const anything = fc.dictionary(fc.constantFrom(...names, "x"), anyValue, { maxKeys: 4 });
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: fc.tuple(valid, hostileField).map(([a, b]) => ({ ...a, ...b })) },
    { weight: 1, arbitrary: fc.tuple(valid, unknownFields).map(([a, b]) => ({ ...b, ...a })) },
    { weight: 1, arbitrary: anything },
  );
}

/** What is wrong with a result, or undefined when it is an answer or a caller's error. */
function defect(result: CallToolResult): string | undefined {
  if (!result.isError) return undefined;
  const text = textOf(result);
  const kind = result._meta?.["panescope/error"];
  if (kind === "internal" || text.startsWith("error (internal)")) return `internal error: ${text.slice(0, 300)}`;
  if (kind !== undefined) return undefined;
  // No kind: the SDK's own answer. Only its input validation is a caller's error.
  if (/^(MCP error -32602: )?Input validation error/.test(text)) return undefined;
  return `unexpected error: ${text.slice(0, 300)}`;
}

describe("MCP fuzzing", () => {
  it("any hostile call is an answer or a caller's error, never internal, and the server keeps answering", async () => {
    // The tools that do the most with their input come up most often.
    const weight = (name: string): number => (name === "list_panes" ? 1 : name === "close_pane" ? 2 : 4);
    const call = fc.oneof(...tools.map((tool) => ({ weight: weight(tool.name), arbitrary: argsFor(tool).map((args) => ({ tool: tool.name, args })) })));
    const defects: string[] = [];
    await fc.assert(
      fc.asyncProperty(call, async ({ tool, args }) => {
        let result: CallToolResult;
        try {
          result = await mcp.call(tool, args);
        } catch (error) {
          defects.push(`${tool} threw: ${String(error).slice(0, 300)}`);
          return false;
        }
        const wrong = defect(result);
        if (wrong !== undefined) defects.push(`${tool} ${JSON.stringify(args).slice(0, 300)}: ${wrong}`);
        return wrong === undefined;
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(defects).toEqual([]);
    expect(unhandled).toEqual([]);
    // A normal call still answers, and correctly.
    const shot = (await mcp.call("capture_pane", { paneId: control })).structuredContent as { rows: string[] };
    expect(shot.rows[0]).toBe("control ready");
    const listed = await mcp.call("list_panes");
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect((await test.run(["display-message", "-p", "-t", control, "#{pane_id}"]))[0]).toBe(control);
  }, 120_000);
});
