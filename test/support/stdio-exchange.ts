// The BUILT server (dist/cli.js) over stdio on a socket no tmux server uses: the handshake on a
// protocol version, then the given lines, stdin ended, and every answer line once it exited. For
// tests of what the protocol layer answers before any tool asks tmux (call-params, request-params,
// batch). Each file that calls stdioExchange gets its children killed and its state folder removed.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

/** `exchange(modeArgs, lines, version)`: every answer line, parsed (the handshake's: ids 0 and 1). */
export function stdioExchange(): (modeArgs: string[], lines: unknown[], version?: string) => Promise<unknown[]> {
  const stateDir = mkdtempSync(join(tmpdir(), "panescope-state-"));
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of children) child.kill();
    rmSync(stateDir, { recursive: true, force: true });
  });
  return async (modeArgs, lines, version = "2025-06-18") => {
    const child = spawn(process.execPath, [CLI, "--socket", `panescope-none-${process.pid}`, ...modeArgs], {
      env: { PATH: process.env.PATH, XDG_STATE_HOME: stateDir },
      stdio: ["pipe", "pipe", "ignore"],
    });
    children.add(child);
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => (out += text));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const handshake = [
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "tools/list" }, // the handshake's end: the split server's engine takes what follows
    ];
    child.stdin.end([...handshake, ...lines].map((line) => `${JSON.stringify(line)}\n`).join(""));
    await exited;
    children.delete(child);
    const answers = out.trim().split("\n").map((line) => JSON.parse(line) as unknown);
    if (answers.filter(ofHandshake).length !== 2) throw new Error(`the handshake was not answered: ${out.slice(0, 500)}`);
    return answers;
  };
}

/** An answer to the handshake's initialize (id 0) or tools/list (id 1). */
export function ofHandshake(answer: unknown): boolean {
  return !Array.isArray(answer) && [0, 1].includes((answer as { id?: unknown }).id as number);
}
