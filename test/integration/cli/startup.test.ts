// Start-up loads only what the command needs (issue 28): `--version`, `--help` and `read` (issue
// 26) none of the MCP SDK, zod, xterm or execa; the MCP server no xterm until a pane is watched
// and no regex worker until a pattern. Each run of the BUILT dist/cli.js is preloaded with test/support/record-loads.mjs,
// which lists every module it loaded and every worker thread it started. dist/cli.js and the faces
// it loads are bundles (scripts/bundle-cli.mjs): a loaded bundle counts as the sources it holds, as
// dist/faces/inputs.json lists them.
// What is loaded, not how long it took: the figure is the bench's (figure 11), never a test's.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { cachePath } from "../../../src/code-cache.js";
import { shellPlace } from "../../support/shell-daemon.js";
import { startServer } from "../../support/tmux-fixture.js";

const DIST = resolve(import.meta.dirname, "../../../dist");
const CLI = join(DIST, "cli.js");
const INPUTS = JSON.parse(readFileSync(join(DIST, "faces/inputs.json"), "utf8")) as Record<string, string[]>;
const RECORDER = resolve(import.meta.dirname, "../../support/record-loads.mjs");
const dir = mkdtempSync(join(tmpdir(), "panescope-startup-"));
const HEAVY = ["@modelcontextprotocol/sdk", "/zod/", "@xterm/", "/execa/"];
let runs = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs dist/cli.js with `args` and `input` on stdin; resolves with its stdout and every module it loaded. */
async function run(args: string[], input = ""): Promise<{ stdout: string; loaded: string[] }> {
  const file = join(dir, `loads-${++runs}`);
  const env = { RECORD_LOADS: file, PANESCOPE_SOCKET: `panescope-startup-test-${process.pid}`, PANESCOPE_SOCKET_PATH: "", PANESCOPE_TMUX: "" };
  const result = await execa(process.execPath, ["--import", RECORDER, CLI, ...args], { input, env, timeout: 30_000 });
  return { stdout: result.stdout, loaded: loadsIn(file) };
}

/** What a run recorded in `file`, each file of the bundle as the sources it holds (paths from the repository's root). */
function loadsIn(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((entry) => {
      const path = entry.startsWith("file:") ? fileURLToPath(entry) : entry;
      return INPUTS[relative(DIST, path)] ?? [path];
    });
}

const heavyIn = (loaded: string[]): string[] => loaded.filter((path) => HEAVY.some((name) => path.includes(name)));

describe("start-up", () => {
  it("dist/cli.js is the bundle, and the MCP server's face holds the MCP SDK, zod and execa (once)", () => {
    expect(readFileSync(CLI, "utf8").split("\n")[1], "run `npm run build`: dist/cli.js is tsc's, not the bundle").toMatch(/^\/\/ panescope CLI bundle/);
    const mcp = INPUTS["faces/mcp.js"] ?? [];
    for (const name of ["@modelcontextprotocol/sdk", "/zod/", "/execa/"]) expect(mcp.some((path) => path.includes(name)), name).toBe(true);
    expect(Object.values(INPUTS).flat().some((path) => path.includes("@xterm/")), "xterm stays outside, required at the first watched pane").toBe(false);
    // The split server (the default): the main thread's face holds none of them, and both threads
    // load the server's face at run time (the front for the handshake) instead of a copy of it.
    for (const face of ["faces/mcp-engine-front.js", "faces/mcp-engine-thread.js"]) {
      expect(INPUTS[face], face).toContain(face.includes("front") ? "src/mcp/engine/front.ts" : "src/mcp/engine/thread.ts");
      expect(heavyIn(INPUTS[face] ?? []), face).toEqual([]);
    }
    for (const face of ["faces/mcp-engine-front.js", "faces/mcp-engine-thread.js"]) expect(readFileSync(join(DIST, face), "utf8"), face).toContain('import("./mcp.js")');
  });

  it("panescope --version loads none of the MCP SDK, zod, xterm or execa", async () => {
    const { stdout, loaded } = await run(["--version"]);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(loaded).toContain("src/cli.ts"); // the recorder saw the run, through the bundle
    expect(heavyIn(loaded)).toEqual([]);
  });

  it("panescope --help and mcp --help load none of the MCP SDK, zod, xterm or execa", async () => {
    for (const args of [["--help"], ["mcp", "--help"], ["golden", "--help"]]) {
      const { stdout, loaded } = await run(args);
      expect(stdout).toContain("usage:");
      expect(loaded).toContain("src/options.ts");
      expect(heavyIn(loaded), args.join(" ")).toEqual([]);
    }
  });

  it("the MCP server answers initialize and tools/list without loading xterm or starting a regex worker", async () => {
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-test", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
    ];
    // By default one worker thread, the engine's; in one thread none.
    for (const [flags, workers] of [[[], 1], [["--single-thread"], 0]] as const) {
      // stdin ends after the requests: the server answers them, then exits (nothing was watched).
      const { stdout, loaded } = await run(["mcp", ...flags], requests.map((r) => `${JSON.stringify(r)}\n`).join(""));
      const answers = stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { id: number; result?: { tools?: unknown[] } });
      expect(answers.map((a) => a.id)).toEqual([1, 2]);
      expect(answers[1]?.result?.tools?.length).toBeGreaterThan(0);
      expect(loaded.some((path) => path.includes("@modelcontextprotocol/sdk"))).toBe(true);
      expect(loaded.filter((path) => path.includes("@xterm/"))).toEqual([]);
      expect(loaded.filter((path) => path === "worker_threads.Worker"), flags.join(" ")).toHaveLength(workers);
    }
  });

  it("the MCP server's face is a script run through V8's code cache, written beside it as the server ends", async () => {
    expect(INPUTS["faces/mcp.js"]).toContain("src/code-cache.ts");
    const cache = cachePath(join(DIST, "faces/mcp.cjs"));
    rmSync(cache, { force: true });
    const request = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })}\n`;
    const first = await run(["mcp"], request);
    expect(first.stdout).toContain('"capture_since"');
    expect(statSync(cache).size).toBeGreaterThan(100_000);
    // The next start runs from it (test/code-cache.test.ts shows V8 takes it) and answers the same.
    expect((await run(["mcp"], request)).stdout).toBe(first.stdout);
  });

  it("panescope read, cold (it starts the daemon) and warm, loads none of the MCP SDK, zod, xterm or execa", async () => {
    const tmux = await startServer({ command: "sh" });
    const place = shellPlace(tmux.name);
    try {
      for (const run of ["cold", "warm"]) {
        const file = join(dir, `loads-read-${run}`);
        const result = await execa(process.execPath, ["--import", RECORDER, CLI, "read", "-L", tmux.name, "%0"], { env: { ...place.env, RECORD_LOADS: file }, timeout: 30_000 });
        expect(result.stdout).toMatch(run === "cold" ? /^cursor=/ : /^no change/);
        const loaded = loadsIn(file);
        expect(loaded).toContain("src/shell/main.ts");
        expect(heavyIn(loaded), run).toEqual([]);
      }
      expect(place.daemons()).toHaveLength(1);
    } finally {
      await place.clean();
      await tmux.kill();
    }
  });

  it("the recorder sees a worker thread start (so the check above can fail)", async () => {
    const file = join(dir, "loads-worker");
    const script = 'const { Worker } = await import("node:worker_threads"); new Worker("", { eval: true });';
    await execa(process.execPath, ["--import", RECORDER, "--input-type=module", "-e", script], { env: { RECORD_LOADS: file }, timeout: 30_000 });
    expect(readFileSync(file, "utf8").split("\n")).toContain("worker_threads.Worker");
  });
});
