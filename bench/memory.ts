// Figure 4, memory: RSS and heap of a process observing 100 panes at 80×24 (default scrollback,
// 200 lines printed in each after the watch began) vs the same process before it observed any.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Result } from "./lib/format.js";
import { gated, serverName, startServer } from "./lib/tmux.js";

interface Sample {
  rss: number;
  heap: number;
}

function child(socket: string, panes: string[], last: string): Promise<{ before: Sample; after: Sample }> {
  const script = resolve(import.meta.dirname, "memory-child.mjs");
  if (!existsSync(resolve(import.meta.dirname, "../dist/watch/hub.js"))) throw new Error("memory: no dist/ yet: run `npm run build` first");
  return new Promise((done, fail) => {
    execFile(process.execPath, ["--expose-gc", script, socket, JSON.stringify(panes), last], { cwd: resolve(import.meta.dirname, "..") }, (error, stdout) => {
      if (error) fail(error);
      else done(JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as { before: Sample; after: Sample });
    });
  });
}

export async function memory(quick: boolean): Promise<Result[]> {
  const count = quick ? 20 : 100;
  const lines = 200;
  const name = serverName();
  const command = gated(name, `seq -f "line %g of the pane output" 1 ${lines}`);
  const bench = await startServer({ name, command });
  try {
    for (let i = 1; i < count; i++) await bench.run(["new-window", "-d", "-t", bench.session, command]);
    const panes = await bench.run(["list-panes", "-s", "-t", bench.session, "-F", "#{pane_id}"]);
    const { before, after } = await child(name, panes, `line ${lines} of the pane output`);
    const MiB = 2 ** 20;
    const perPane = (a: number, b: number): string => `${((a - b) / 1024 / count).toFixed(0)} KiB per pane`;
    return [
      { id: "4a", label: `RSS, ${count} observed panes`, value: after.rss / MiB, baseline: before.rss / MiB, baselineLabel: "no observers", unit: "MiB", better: "lower", note: perPane(after.rss, before.rss) },
      { id: "4b", label: `JS heap, ${count} observed panes`, value: after.heap / MiB, baseline: before.heap / MiB, baselineLabel: "no observers", unit: "MiB", better: "lower", note: perPane(after.heap, before.heap) },
    ];
  } finally {
    await bench.kill();
  }
}
