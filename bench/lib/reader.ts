// How the bench reads panes: `capture_since` over stdio to `node dist/cli.js` (what an agent pays),
// from a plain JSON-RPC client (rpc.ts) or, on request, the MCP SDK's client; or the in-process Hub
// when the built server is missing (said in the note).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Delta } from "../../src/observe/read/delta.js";
import { Hub } from "../../src/watch/hub.js";
import { StdioRpc } from "./rpc.js";
import type { BenchServer } from "./tmux.js";

export interface CaptureArgs {
  paneId?: string;
  cursor?: string;
  waitMs?: number;
  maxLines?: number;
  maxBytes?: number;
}

/** One capture_since answer as a model gets it: the text content and the structured content. */
export interface Answer {
  delta: Delta;
  text: string;
  /** structuredContent as JSON, as it travels. */
  json: string;
}

export interface Reader {
  readonly transport: "stdio" | "stdio, SDK client" | "in-process";
  capture(args: CaptureArgs): Promise<Delta>;
  /** The whole answer (stdio only: the in-process reader has no MCP layer). */
  answer(args: CaptureArgs & { view?: string }): Promise<Answer>;
  /** Any tool's answer (stdio only); `delta` is its delta (wait_for, send_keys: under `delta`). */
  tool(name: string, args: Record<string, unknown>): Promise<Answer>;
  /** Resident set size of the process holding the observers, in bytes (VmRSS). */
  rss(): number;
  /** Whether that process is still running. */
  alive(): boolean;
  close(): Promise<void>;
}

const CLI = resolve(import.meta.dirname, "../../dist/cli.js");
const MAIN = resolve(import.meta.dirname, "../../dist/mcp/main.js");

export function stdioAvailable(): boolean {
  return existsSync(CLI) && existsSync(MAIN);
}

export interface ReaderOptions {
  maxPanes?: number;
  /** Read through the MCP SDK's client instead of plain JSON-RPC (stdio only). */
  sdk?: boolean;
  /** Start the server with --single-thread, its engine on the thread that answers (plain JSON-RPC over stdio only). */
  singleThread?: boolean;
}

export async function openReader(bench: BenchServer, options: ReaderOptions = {}): Promise<Reader> {
  // PANESCOPE_BENCH_READER=hub measures without MCP and stdio (to see what the transport costs).
  const inProcess = process.env.PANESCOPE_BENCH_READER === "hub" || !stdioAvailable();
  if (inProcess) return hubReader(bench, options);
  return options.sdk ? sdkReader(bench) : stdioReader(bench, options);
}

function rssOf(pid: number): number {
  try {
    const status = readStatus(pid);
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
  } catch {
    return Number.NaN;
  }
}

function readStatus(pid: number): string {
  return readFileSync(`/proc/${pid}/status`, "utf8"); // synchronous and cheap: one small procfs file
}

/** One tools/call result as it travels, read as an Answer. */
function answerOf(result: Record<string, unknown>, name = "capture_since"): Answer {
  const delta = deltaOf(result, name);
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.map((c) => c.text ?? "").join("\n");
  return { delta, text, json: JSON.stringify(result.structuredContent) };
}

/**
 * The delta alone, for the figures that time reads: serializing the whole answer again (`json`)
 * cost the bench 0.3–0.8 ms a 16 KiB read under figure 5's floods, and its garbage lengthened the
 * bench's own pauses, which the reads' latencies counted as the server's.
 */
function deltaOf(result: Record<string, unknown>, name = "capture_since"): Delta {
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  const structured = result.structuredContent as Record<string, unknown>;
  return (name === "capture_since" ? structured : structured.delta) as Delta;
}

/** A private state directory: the server's cursor key must not touch the user's. */
function serverEnv(): { env: Record<string, string>; state: string } {
  const state = mkdtempSync(join(tmpdir(), "panescope-bench-state-"));
  return { env: { ...getDefaultEnvironment(), XDG_STATE_HOME: state }, state };
}

async function stdioReader(bench: BenchServer, options: ReaderOptions): Promise<Reader> {
  const { env, state } = serverEnv();
  const rpc = await StdioRpc.start(process.execPath, [CLI, "--socket", bench.name, ...(options.singleThread ? ["--single-thread"] : [])], env);
  const answer = async (args: CaptureArgs & { view?: string }): Promise<Answer> => answerOf(await rpc.callTool("capture_since", { ...args }));
  return {
    transport: "stdio",
    capture: async (args) => deltaOf(await rpc.callTool("capture_since", { ...args })),
    answer,
    tool: async (name, args) => answerOf(await rpc.callTool(name, args), name),
    rss: () => rssOf(rpc.pid),
    alive: () => rpc.alive && rssOf(rpc.pid) > 0,
    async close() {
      await rpc.close();
      rmSync(state, { recursive: true, force: true });
    },
  };
}

async function sdkReader(bench: BenchServer): Promise<Reader> {
  const { env, state } = serverEnv();
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--socket", bench.name], env, stderr: "ignore" });
  const client = new Client({ name: "panescope-bench", version: "0" });
  await client.connect(transport);
  // Listed first, as an agent does: the client then checks every answer against the tool's schema.
  await client.listTools();
  const pid = transport.pid ?? -1;
  let exited = false;
  transport.onclose = () => (exited = true);
  const call = async (args: CaptureArgs & { view?: string }): Promise<Record<string, unknown>> => client.callTool({ name: "capture_since", arguments: { ...args } });
  const answer = async (args: CaptureArgs & { view?: string }): Promise<Answer> => answerOf(await call(args));
  return {
    transport: "stdio, SDK client",
    capture: async (args) => deltaOf(await call(args)),
    answer,
    tool: async (name, args) => answerOf(await client.callTool({ name, arguments: args }), name),
    rss: () => rssOf(pid),
    alive: () => !exited && rssOf(pid) > 0,
    async close() {
      await client.close();
      rmSync(state, { recursive: true, force: true });
    },
  };
}

function hubReader(bench: BenchServer, options: ReaderOptions): Reader {
  const hub = new Hub({ server: bench.server, key: randomBytes(32), maxPanes: options.maxPanes ?? 64 });
  return {
    transport: "in-process",
    capture: (args) =>
      hub.capture({
        ...(args.paneId === undefined ? {} : { paneId: args.paneId }),
        ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
        ...(args.waitMs === undefined ? {} : { waitMs: args.waitMs }),
        limits: {
          ...(args.maxLines === undefined ? {} : { maxLines: args.maxLines }),
          maxBytes: args.maxBytes ?? 256 * 1024,
        },
      }),
    answer: () => Promise.reject(new Error("the in-process reader has no MCP text: build dist/ (npm run build) to measure answers")),
    tool: () => Promise.reject(new Error("the in-process reader has no MCP tools: build dist/ (npm run build) to measure answers")),
    rss: () => process.memoryUsage().rss,
    alive: () => true,
    close: () => hub.close(),
  };
}
