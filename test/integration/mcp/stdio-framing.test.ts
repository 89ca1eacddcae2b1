// The BUILT panescope (dist/cli.js) fed a 300 MiB JSON-RPC line on stdin: it answers that request
// with an error, keeps serving, and its memory does not grow with the line (npm test builds first).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));
let child: ChildProcessWithoutNullStreams;
let stderr = "";
/** Checked at each chunk of stderr: the engine thread's lines reach it through the front, after its answers may have. */
const stderrWaits: { pattern: RegExp; resolve: () => void }[] = [];
/** The line's size: churn stays near 70 MiB whatever the size (the same for 100, 300 and 600 MiB). */
const LINE_MIB = 300;
const waiting = new Map<number, (message: Record<string, unknown>) => void>();

function answer(id: number): Promise<Record<string, unknown>> {
  return new Promise((resolve) => waiting.set(id, resolve));
}

/** Settles once stderr matches `pattern` (the test's timeout fails it when it never does). */
function stderrMatching(pattern: RegExp): Promise<void> {
  return new Promise((resolve) => (pattern.test(stderr) ? resolve() : stderrWaits.push({ pattern, resolve })));
}

async function write(data: string | Buffer): Promise<void> {
  if (!child.stdin.write(data)) await new Promise((resolve) => child.stdin.once("drain", resolve));
}

/** Peak and current resident memory of the child, in KiB (Linux /proc). */
function memory(): { peak: number; now: number } {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { peak: kib("VmHWM"), now: kib("VmRSS") };
}

beforeAll(async () => {
  child = spawn(process.execPath, [CLI, "--socket", `panescope-none-${process.pid}`], { env: { XDG_STATE_HOME: stateDir, PATH: process.env.PATH ?? "" } });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wait of stderrWaits) if (wait.pattern.test(stderr)) wait.resolve();
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split("\n");
    out = lines.pop() ?? "";
    for (const line of lines) {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  const init = answer(1);
  await write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } })}\n`);
  await init;
  await write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
});

afterAll(() => {
  child.kill();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("stdio framing", () => {
  it("answers a 300 MiB request with an error naming the limit, in bounded memory, and keeps serving", async () => {
    const listed = answer(3);
    await write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" })}\n`);
    await listed; // warm: the first tools/list builds the schemas
    // And the engine thread up: it loads the server once the handshake is over, and answers a ping.
    const pong = answer(5);
    await write(`${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" })}\n`);
    await pong;
    const before = memory();
    const refused = answer(2);
    const started = Date.now();
    const head = '{"method":"tools/call","params":{"name":"send_keys","arguments":{"paneId":"%0","text":"';
    const tail = '"}},"jsonrpc":"2.0","id":2}';
    await write(head);
    const mib = Buffer.alloc(1024 * 1024, "a");
    for (let i = 0; i < LINE_MIB; i++) await write(mib);
    await write(`${tail}\n`);
    const error = await refused;
    const seconds = (Date.now() - started) / 1000;
    const after = memory();
    expect(error).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringContaining("over this server's limit of 4194304 bytes") } });
    const again = answer(4);
    await write(`${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list" })}\n`);
    expect(((await again).result as { tools: unknown[] }).tools.length).toBe(7);
    // The engine thread writes its answers to fd 1 itself, but its stderr goes through the front
    // thread: the line may come after both answers (it did once in CI, on tmux 3.6a's run).
    const bytes = head.length + LINE_MIB * mib.length + tail.length;
    await stderrMatching(new RegExp(`answered request 2 with an error: its ${bytes}-byte message is over`));
    const growth = Math.max(0, after.peak - Math.max(before.peak, before.now)) / 1024;
    console.log(`${LINE_MIB} MiB line skipped in ${seconds.toFixed(2)} s; RSS ${(before.now / 1024).toFixed(0)} → ${(after.now / 1024).toFixed(0)} MiB, peak grew ${growth.toFixed(1)} MiB`);
    // Garbage chunks (64 KiB each) are freed in GC batches: growth is churn, not the line. Churn is
    // V8's to bound, not ours: each thread (the front, the engine) collects once its external memory
    // has grown by tens of MiB, later when the machine is busy: 63–74 MiB on a 2-core VM, in CI too,
    // for lines of 100, 300 and 600 MiB alike (a 100 MiB line left too little room between the two).
    // What this proves is that the line is never held: growth stays under half the line's size.
    expect(growth).toBeLessThan(LINE_MIB / 2);
  });
});
