// Figure 11, start-up: `panescope --version`, `--help`, and the stdio MCP server's answers to
// `initialize` + `tools/list` (spawn to both answers, what an MCP client waits before its first
// call), each beside the Node floor: `node -e ''` spawned the same way, in the same rounds, so the
// ratio holds on a slow or busy machine. Goals (issue 28): ≤ 1.5× for --version and --help, ≤ 3×
// for the MCP answers. The server gets a private tmux socket name and no tmux server: neither
// answer needs tmux. 11d is 11c with --single-thread (no engine thread to start). The server's face
// runs through V8's code cache, which its first run writes (src/code-cache.ts): 11c and 11d start
// with it, as on any machine where the server ran before; 11e is 11c with it removed first, a
// first start.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { cachePath } from "../src/code-cache.js";
import { percentile, type Result } from "./lib/format.js";
import { serverName } from "./lib/tmux.js";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");
const CODE_CACHE = cachePath(resolve(import.meta.dirname, "../dist/faces/mcp.cjs"));

const REQUESTS = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "panescope-bench", version: "0" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join("");

/** Spawns `node args` and resolves with the ms from spawn to its exit (status 0 required). */
function timedRun(args: string[]): Promise<number> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "ignore"] });
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? done(performance.now() - t0) : fail(new Error(`startup: node ${args.join(" ")} exited ${code}`))));
  });
}

/** Spawns the MCP server, sends initialize and tools/list at once; resolves with the ms to both answers. */
function timedAnswers(socket: string, flags: string[] = []): Promise<number> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, "-L", socket, ...flags], { stdio: ["pipe", "pipe", "ignore"] });
    const answered = new Set<number>();
    let buffered = "";
    let ms: number | undefined;
    child.once("error", fail);
    child.once("exit", () => (ms === undefined ? fail(new Error("startup: the MCP server exited before it answered")) : done(ms)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      buffered += text;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const { id } = JSON.parse(buffered.slice(0, end)) as { id?: number };
        buffered = buffered.slice(end + 1);
        if (id !== undefined) answered.add(id);
      }
      if (ms === undefined && answered.has(1) && answered.has(2)) {
        ms = performance.now() - t0;
        child.stdin.end(); // the server then exits; the exit is not timed
      }
    });
    child.stdin.write(REQUESTS);
  });
}

export async function startup(quick: boolean): Promise<Result[]> {
  const rounds = quick ? 10 : 30;
  const socket = serverName();
  const floor: number[] = [];
  const version: number[] = [];
  const help: number[] = [];
  const answers: number[] = [];
  const oneThread: number[] = [];
  const first: number[] = [];
  // Interleaved, one of each per round, so all six see the same machine; the first round warms
  // the file cache and is dropped. Each server writes the code cache as it exits, untimed.
  for (let round = -1; round < rounds; round++) {
    const f = await timedRun(["-e", ""]);
    const v = await timedRun([CLI, "--version"]);
    const h = await timedRun([CLI, "--help"]);
    const a = await timedAnswers(socket);
    const t = await timedAnswers(socket, ["--single-thread"]);
    rmSync(CODE_CACHE, { force: true });
    const c = await timedAnswers(socket);
    if (round < 0) continue;
    floor.push(f);
    version.push(v);
    help.push(h);
    answers.push(a);
    oneThread.push(t);
    first.push(c);
  }
  const base = percentile(floor, 50);
  const note = (goal: string): string => `p50 of ${rounds} spawns; goal ${goal}`;
  return [
    { id: "11a", label: "panescope --version", value: percentile(version, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note: note("≤ 1.5×") },
    { id: "11b", label: "panescope --help", value: percentile(help, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note: note("≤ 1.5×") },
    { id: "11c", label: "MCP initialize + tools/list", value: percentile(answers, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note: note("≤ 3×") },
    { id: "11d", label: "MCP initialize + tools/list, --single-thread", value: percentile(oneThread, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note: note("≤ 3×; 11c in one thread") },
    { id: "11e", label: "MCP initialize + tools/list, first start", value: percentile(first, 50), baseline: base, baselineLabel: "node -e ''", unit: "ms", better: "lower", note: note("≤ 3×; 11c without the code cache a first run writes") },
  ];
}
