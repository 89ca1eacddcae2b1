// Figure 6, agent economy: what a model reads. An agent calls capture_since every 200 ms while a
// program draws, until it has ended; we count the bytes of the answers' text content (what a model
// reads) and, separately, of their structuredContent JSON, against two baselines from the same run:
// the escape-stripped raw stream since the last read, and a one-screen `capture-pane -p` per read.
// At the end the screen rebuilt from the text alone, and the one rebuilt from the structured rows,
// are compared with tmux's `capture-pane -p` (✓/✗). 6g is one agent loop as docs/tools.md shows
// it: in a shell, send_keys types the command with a wait for the prompt (1 s, the program takes
// longer), then capture_since every 200 ms until it has ended; every answer's delta counts.
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RebuiltScreen, TextScreen, tmuxRows } from "../test/support/rebuild.js";
import type { Result } from "./lib/format.js";
import { openReader, stdioAvailable, type Answer } from "./lib/reader.js";
import { serverName, startServer, timedTmux, type BenchServer } from "./lib/tmux.js";

const PROGRAMS = resolve(import.meta.dirname, "programs.mjs");
const READ_EVERY_MS = 200;
const TOP_MS = 5000;

interface Workload {
  id: string;
  label: string;
  /** The pane's command, started once the bench says go; it signals `done` when it ends. */
  command: (server: string) => string;
  /** Ends a program that does not end by itself; resolves when it has. */
  stop?: (bench: BenchServer) => Promise<void>;
}

const node = (name: string) => (server: string) => `sh -c 'tmux -L ${server} wait-for go; node ${PROGRAMS} ${name}; tmux -L ${server} wait-for -S done; exec sleep 3600'`;

export const WORKLOADS: Workload[] = [
  { id: "6a", label: "\\r progress bar, 100 frames", command: node("progress") },
  { id: "6b", label: "docker-pull redraw, 10 lines × 50", command: node("docker-pull") },
  { id: "6c", label: "300-line log", command: node("log") },
  {
    id: "6d",
    label: `top -d 0.5 for ${TOP_MS / 1000} s`,
    command: (server) => `sh -c 'tmux -L ${server} wait-for go; exec top -d 0.5'`,
    // Frozen by a 1000 s delay (top's d command), not stopped: tmux sends SIGCONT to a pane's process
    // stopped by SIGSTOP (server.c, server_child_stopped). Its last frame stays to compare with tmux's.
    stop: async (bench) => {
      await sleep(TOP_MS);
      await bench.run(["send-keys", "-t", bench.pane, "-l", "d"]);
      while (!(await bench.run(["capture-pane", "-p", "-t", bench.pane])).some((row) => row.startsWith("Change delay from"))) await sleep(20);
      await bench.run(["send-keys", "-t", bench.pane, "-l", "1000"]);
      await bench.run(["send-keys", "-t", bench.pane, "Enter"]);
      await timedTmux(bench.name, ["wait-for", "-S", "done"]);
    },
  },
  { id: "6e", label: "scroll-region chat, 100 messages", command: node("chat") },
  { id: "6f", label: "synchronized-output TUI, 60 frames", command: node("sync") },
];

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");
const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

async function measure(workload: Workload): Promise<Result[]> {
  const server = serverName();
  const bench = await startServer({ name: server, command: workload.command(server) });
  const reader = await openReader(bench);
  try {
    const first = await reader.answer({ paneId: bench.pane });
    const text = new TextScreen();
    const rows = new RebuiltScreen();
    text.apply(first.text);
    rows.apply(first.delta);
    let cursor = first.delta.cursor;
    const sum = { text: 0, json: 0, raw: 0, screen: 0, reads: 0 };
    let exact = true;
    let ended = false;
    const done = timedTmux(server, ["wait-for", "done"]).then(() => (ended = true));
    await timedTmux(server, ["wait-for", "-S", "go"]);
    const stopped = workload.stop?.(bench);
    const read = async (waitMs = 0): Promise<void> => {
      const answer = await reader.answer({ cursor, waitMs, maxBytes: 1 << 20 });
      const screen = await timedTmux(server, ["capture-pane", "-p", "-t", bench.pane]);
      const d = answer.delta;
      if (d.missed || d.truncated.rows > 0 || d.truncated.rawChars > 0) exact = false;
      text.apply(answer.text);
      rows.apply(d);
      cursor = d.cursor;
      sum.reads++;
      sum.text += bytes(answer.text);
      sum.json += bytes(answer.json);
      sum.raw += bytes(d.raw);
      sum.screen += bytes(screen.stdout);
    };
    for (let last = false; !last; ) {
      await sleep(READ_EVERY_MS);
      last = ended; // one more read after the program ended, then stop
      await read();
    }
    await Promise.all([done, stopped]);
    const tmux = JSON.stringify(tmuxRows((await timedTmux(server, ["capture-pane", "-p", "-t", bench.pane])).stdout.replace(/\n$/, "").split("\n")));
    const same = (screen: TextScreen | RebuiltScreen): boolean => JSON.stringify(screen.rows()) === tmux;
    // What the program wrote just before it ended can still be on its way (seen under load: the
    // read 5 ms after the end lacked the last 50 ms of a log, which the next read had). An agent
    // reads on; so does this, at most 20 waits of 100 ms: a mismatch is one that stays.
    for (let more = 0; more < 20 && !(same(text) && same(rows)); more++) await read(100);
    const mark = (ok: boolean): string => (ok ? "✓" : "✗");
    const rebuilt = `text rebuild ${mark(exact && same(text))}, rows rebuild ${mark(exact && same(rows))}`;
    const reads = `${sum.reads} reads`;
    return [
      {
        id: workload.id,
        label: `${workload.label}: text`,
        value: sum.text,
        baseline: sum.raw,
        baselineLabel: "stripped raw",
        unit: "B",
        better: "lower",
        note: `${reads}; structuredContent ${kib(sum.json)}; ${rebuilt}`,
      },
      { id: `${workload.id}′`, label: `${workload.label}: text`, value: sum.text, baseline: sum.screen, baselineLabel: "capture-pane -p", unit: "B", better: "lower", note: reads },
    ];
  } finally {
    await reader.close();
    await bench.kill();
  }
}

/** 6g: send_keys with a wait, then reads every 200 ms, against the stripped raw of the same answers. */
async function agentLoop(): Promise<Result> {
  const server = serverName();
  const bench = await startServer({ name: server, command: "sh" });
  const reader = await openReader(bench);
  try {
    const first = await reader.tool("capture_since", { paneId: bench.pane });
    const text = new TextScreen();
    const rows = new RebuiltScreen();
    text.apply(first.text);
    rows.apply(first.delta);
    const sum = { text: 0, json: 0, raw: 0, reads: 0 };
    let exact = true;
    const take = (answer: Answer): string => {
      const d = answer.delta;
      if (d.missed || d.truncated.rows > 0 || d.truncated.rawChars > 0) exact = false;
      text.apply(answer.text);
      rows.apply(d);
      sum.reads++;
      sum.text += bytes(answer.text);
      sum.json += bytes(answer.json);
      sum.raw += bytes(d.raw);
      return d.cursor;
    };
    let ended = false;
    const done = timedTmux(server, ["wait-for", "done"]).then(() => (ended = true));
    const command = `node ${PROGRAMS} docker-pull; tmux -L ${server} wait-for -S done`;
    let cursor = take(await reader.tool("send_keys", { paneId: bench.pane, cursor: first.delta.cursor, text: command, enter: true, wait: { pattern: "^[$#] $", timeoutMs: 1000 }, maxBytes: 1 << 20 }));
    for (let last = ended; !last; ) {
      await sleep(READ_EVERY_MS);
      last = ended; // one more read after the program ended, then stop
      cursor = take(await reader.tool("capture_since", { cursor, maxBytes: 1 << 20 }));
    }
    await done;
    // The prompt after the program: read until it is there, so the rebuilt screen is the last one.
    cursor = take(await reader.tool("wait_for", { cursor, pattern: "^[$#] $", timeoutMs: 5000, maxBytes: 1 << 20 }));
    const tmux = JSON.stringify(tmuxRows((await timedTmux(server, ["capture-pane", "-p", "-t", bench.pane])).stdout.replace(/\n$/, "").split("\n")));
    const mark = (ok: boolean): string => (ok ? "✓" : "✗");
    const rebuilt = `text rebuild ${mark(exact && JSON.stringify(text.rows()) === tmux)}, rows rebuild ${mark(exact && JSON.stringify(rows.rows()) === tmux)}`;
    return {
      id: "6g",
      label: "agent loop: send_keys + wait, reads at 200 ms",
      value: sum.text,
      baseline: sum.raw,
      baselineLabel: "stripped raw",
      unit: "B",
      better: "lower",
      note: `docker-pull in a shell; ${sum.reads} answers; structuredContent ${kib(sum.json)}; ${rebuilt}`,
    };
  } finally {
    await reader.close();
    await bench.kill();
  }
}

export async function economy(): Promise<Result[]> {
  if (!stdioAvailable()) throw new Error("figure 6 reads over MCP stdio: build dist/ first (npm run build)");
  const results: Result[] = [];
  for (const workload of WORKLOADS) results.push(...(await measure(workload)));
  results.push(await agentLoop());
  return results;
}
