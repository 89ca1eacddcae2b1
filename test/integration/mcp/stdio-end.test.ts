// The BUILT panescope (dist/cli.js) with a stdin that closes right after its requests: each request
// read before the end is answered, then the server exits; its stderr lines carry one prefix.
// Run `npx tsc -p tsconfig.build.json` first (npm test does).
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");

afterAll(killAllServers);

const lines = (messages: object[]): string => messages.map((m) => `${JSON.stringify(m)}\n`).join("");

describe("stdin that closes right after a request", () => {
  it("every request read before the end is answered, then panescope exits 0; stderr says panescope once a line", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    const input = lines([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "capture_since", arguments: { paneId: "%0" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_panes", arguments: {} } },
    ]);
    // The cursor key cannot be stored under a regular file: the hub warns on stderr.
    const result = await execa(process.execPath, [CLI, "-L", test.name], {
      input,
      reject: false,
      timeout: 50_000,
      env: { XDG_STATE_HOME: "/dev/null/panescope-test", ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) },
    });
    const answers = result.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { id?: number; error?: unknown; result?: { isError?: boolean } });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    expect(answers.every((a) => a.error === undefined && a.result?.isError !== true)).toBe(true);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^panescope: cannot store the cursor key/m);
    expect(result.stderr).not.toMatch(/panescope: panescope:/);
  });
});
