// The BUILT panescope (dist/cli.js) told to stop (SIGTERM, SIGINT) while a call waits: the wait is
// answered at once, as cut short, and the server exits. A client's supervisor sends SIGTERM and then
// kills a server that lingers; before, a wait held the server (and its answer) for its whole length.
// Run `npm run build` first (npm test does).
import { join } from "node:path";
import { createInterface } from "node:readline";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");
/** Longer than the test may run: a wait that is not cut short holds the server past the test's timeout. */
const HOUR_MS = 3_600_000;

afterAll(killAllServers);

interface Answer {
  id?: number;
  result?: { structuredContent?: { cursor?: string; waitEnded?: string }; isError?: boolean };
}

describe("a server told to stop while a call waits", () => {
  for (const [mode, signal] of [
    ["its engine on a thread of its own (the default)", "SIGTERM"],
    ["in one thread", "SIGTERM"],
    ["its engine on a thread of its own (the default)", "SIGINT"],
  ] as const) {
    it(`answers the wait as cut short and exits 0 (${mode}, ${signal})`, { timeout: 60_000 }, async () => {
      const test = await startServer({ command: "cat" });
      const args = [CLI, "-L", test.name, "--max-wait-ms", String(HOUR_MS), ...(mode === "in one thread" ? ["--single-thread"] : [])];
      const server = execa(process.execPath, args, { reject: false, stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...(process.env.TMUX_TMPDIR ? { TMUX_TMPDIR: process.env.TMUX_TMPDIR } : {}) } });
      const answers = new Map<number, (answer: Answer) => void>();
      createInterface({ input: server.stdout }).on("line", (line) => {
        const answer = JSON.parse(line) as Answer;
        if (answer.id !== undefined) answers.get(answer.id)?.(answer);
      });
      const call = (id: number, method: string, params: object): Promise<Answer> => {
        const answered = new Promise<Answer>((resolve) => answers.set(id, resolve));
        server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
        return answered;
      };
      await call(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } });
      server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const first = await call(2, "tools/call", { name: "capture_since", arguments: { paneId: "%0" } });
      const cursor = first.result?.structuredContent?.cursor;
      expect(cursor).toBeTypeOf("string");
      const waiting = call(3, "tools/call", { name: "capture_since", arguments: { cursor, waitMs: HOUR_MS } });
      // Answered after the wait was read (requests are read in order): the wait is in the server.
      await call(4, "tools/call", { name: "list_panes", arguments: {} });
      server.kill(signal);
      const waited = await waiting;
      expect(waited.result?.isError).not.toBe(true);
      expect(waited.result?.structuredContent?.waitEnded).toBe("aborted");
      const ended = await server;
      expect(ended.exitCode).toBe(0);
    });
  }
});
