// Control mode unavailable: a real `tmux` wrapper (given as the binary) refuses `-C`, or runs it
// with stdin closed so tmux sends %exit right after the attach. Reads fall back to capture-pane
// polling (streaming: false, rows still right, raw empty), and control mode is retried later.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TmuxServer } from "../../../src/tmux/server.js";
import { closeAll, connect, texts } from "../../support/mcp-hub.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const dirs: string[] = [];
afterEach(async () => {
  await closeAll();
  await killAllServers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tmux wrapper: while `flag` exists, `-C` is refused ("refuse") or attached with stdin closed ("exit"). */
function wrapper(mode: "refuse" | "exit"): { tmux: string; flag: string } {
  const dir = mkdtempSync(join(tmpdir(), "panescope-wrap-"));
  dirs.push(dir);
  const flag = join(dir, "unavailable");
  const tmux = join(dir, "tmux");
  const unavailable = mode === "refuse" ? 'echo "control mode refused (test wrapper)" >&2; exit 1' : 'exec tmux "$@" </dev/null';
  writeFileSync(tmux, `#!/bin/sh\nif [ -e '${flag}' ]; then for a in "$@"; do if [ "$a" = "-C" ]; then ${unavailable}; fi; done; fi\nexec tmux "$@"\n`);
  chmodSync(tmux, 0o755);
  writeFileSync(flag, "");
  return { tmux, flag };
}

async function screen(test: TestServer, pane: string): Promise<string[]> {
  return (await test.run(["capture-pane", "-p", "-t", pane])).map((l) => l.trimEnd());
}

for (const mode of ["refuse", "exit"] as const) {
  describe(`control mode unavailable (${mode === "refuse" ? "attach refused" : "%exit right after attach"})`, () => {
    it("reads fall back to polling with correct rows, and control mode comes back on a later read", async () => {
      const test = await startServer({ cols: 50, rows: 8, command: "sh", env: { PS1: "$ " } });
      const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
      await test.run(["send-keys", "-t", pane, "-l", "printf 'a\\033[1mbold\\033[0m z\\n'\n"]);
      // Typed before the prompt, this line once landed on the prompt's row ("# abold z", tmux 3.7c):
      // startServer now waits for the prompt. Should it not come, say what the pane showed.
      await waitFor(async () => (await screen(test, pane)).includes("abold z"), 5000, "output").catch(async (error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}; the pane shows ${JSON.stringify(await screen(test, pane))}`);
      });
      const { tmux, flag } = wrapper(mode);
      const warnings: string[] = [];
      const server = new TmuxServer({ tmux, socketName: test.name });
      const mcp = await connect(server, { retryStreamingMs: 300, pollIntervalMs: 50, warn: (m) => warnings.push(m) });

      const first = await mcp.capture({ paneId: pane });
      expect(first).toMatchObject({ streaming: false, first: true, missed: false, raw: "" });
      expect(texts(first)).toEqual((await screen(test, pane)).slice(0, first.rows.length));
      expect(warnings.join("\n")).toMatch(/control mode unavailable .*polling/);
      expect(mcp.hub.watching).toEqual([{ paneId: pane, streaming: false, closed: false, heals: 0 }]);

      // A scrolling log: each new line once, with consecutive line numbers, and no raw text.
      await test.run(["send-keys", "-t", pane, "-l", "clear; seq 1 20\n"]);
      const deltas = await mcp.captureUntil(first, (d) => texts(d).includes("20"));
      expect(deltas.every((d) => !d.streaming && d.raw === "" && d.rawBytes === 0 && !d.missed)).toBe(true);
      await waitFor(async () => JSON.stringify((await (await mcp.hub.observer(pane)).screenText()).rows) === JSON.stringify(await screen(test, pane)), 5000, "rows equal to tmux's");

      // Control mode works again: the first read after the retry interval switches back to streaming.
      rmSync(flag);
      expect(existsSync(flag)).toBe(false);
      let back = deltas.at(-1) ?? first;
      const polled = back.cursor;
      await waitFor(async () => (back = await mcp.capture({ cursor: polled })).streaming, 5000, "the retry (every 300 ms) to succeed");
      expect(back).toMatchObject({ streaming: true, missed: true, reason: "not-streaming", first: true });
      await test.run(["send-keys", "-t", pane, "-l", "echo streamed\n"]);
      const streamed = await mcp.captureUntil(back, (d) => texts(d).includes("streamed"));
      expect(streamed.at(-1)).toMatchObject({ streaming: true, missed: false });
      expect(streamed.map((d) => d.raw).join("")).toContain("streamed\n");
    });
  });
}

describe("polling a pane", () => {
  it("a polled pane that exits is closed, and a waiting read ends with closed", async () => {
    const test = await startServer({ cols: 50, rows: 8, command: "sh" });
    const [pane = ""] = await test.run(["split-window", "-t", "main", "-P", "-F", "#{pane_id}", "sh"]);
    const { tmux } = wrapper("refuse");
    const mcp = await connect(new TmuxServer({ tmux, socketName: test.name }), { pollIntervalMs: 50 });
    const start = await mcp.capture({ paneId: pane });
    expect(start.streaming).toBe(false);
    const waiting = mcp.capture({ cursor: start.cursor, waitMs: 10_000 });
    await test.run(["send-keys", "-t", pane, "-l", "exit\n"]);
    const ended = await waiting;
    const last = ended.closed ? ended : (await mcp.captureUntil(ended, (d) => d.closed)).at(-1);
    expect(last).toMatchObject({ closed: true, streaming: false });
  });
});
