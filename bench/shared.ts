// Figure 13, shared versus separate: ten MCP agents watch the same ten panes (one busy, printing a
// line every 20 ms; nine quiet), each agent reading every pane in a loop of capture_since {cursor,
// waitMs}, for 60 s (10 s with --quick). Once as ten stdio servers (`panescope mcp`, a hub each),
// once as ten `panescope mcp --shared` relays to one daemon. Measured for both, in the same run:
// control clients attached to the session (tmux list-clients), resident memory of every panescope
// process at the end, and CPU time (user + system) those processes spent during the period.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Result } from "./lib/format.js";
import { StdioRpc } from "./lib/rpc.js";
import { daemonPid } from "./lib/daemon.js";
import { startServer, type BenchServer } from "./lib/tmux.js";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");
const AGENTS = 10;
const PANES = 10;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function rssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) * 1024;
}

interface Measured {
  controlClients: number;
  rss: number;
  /** The daemon's alone (shared), or the mean of one stdio server's (separate). */
  rssOne: number;
  cpu: number;
}

/** Every agent reads every pane on and on until `until`; the answers themselves are not kept. */
async function watch(agents: StdioRpc[], panes: string[], until: number): Promise<void> {
  await Promise.all(
    agents.flatMap((agent) =>
      panes.map(async (paneId) => {
        let cursor: string | undefined;
        while (Date.now() < until) {
          const result = await agent.callTool("capture_since", cursor === undefined ? { paneId } : { cursor, waitMs: Math.max(1, Math.min(1000, until - Date.now())) });
          cursor = (result.structuredContent as { cursor: string }).cursor;
        }
      }),
    ),
  );
}

async function run(tmux: BenchServer, panes: string[], shared: boolean, seconds: number, env: NodeJS.ProcessEnv): Promise<Measured> {
  const args = [CLI, "mcp", "-L", tmux.name, ...(shared ? ["--shared"] : [])];
  const agents: StdioRpc[] = [];
  for (let i = 0; i < AGENTS; i++) agents.push(await StdioRpc.start(process.execPath, args, env));
  const pids = [...agents.map((a) => a.pid), ...(shared ? [daemonPid(env.XDG_RUNTIME_DIR ?? "") ?? Number.NaN] : [])];
  try {
    // Warm: every agent has every pane watched before the period starts.
    await watch(agents, panes, Date.now() + 1);
    const before = pids.map(cpuSeconds);
    await watch(agents, panes, Date.now() + seconds * 1000);
    const cpu = pids.map(cpuSeconds).reduce((sum, after, i) => sum + after - (before[i] ?? 0), 0);
    const clients = await tmux.run(["list-clients", "-F", "#{client_control_mode}"]);
    const rss = pids.map(rssBytes);
    const total = rss.reduce((a, b) => a + b, 0);
    return { controlClients: clients.filter((c) => c === "1").length, rss: total, rssOne: shared ? (rss[rss.length - 1] ?? Number.NaN) : total / rss.length, cpu };
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    if (shared) process.kill(pids[pids.length - 1] ?? 0, "SIGTERM");
  }
}

export async function shared(quick: boolean): Promise<Result[]> {
  const seconds = quick ? 10 : 60;
  const tmux = await startServer({ cols: 80, rows: 24, command: "i=0; while :; do i=$((i+1)); echo busy line $i; sleep 0.02; done" });
  const runtime = mkdtempSync(join(tmpdir(), "panescope-bench-shared-"));
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, PANESCOPE_SOCKET: "", PANESCOPE_SOCKET_PATH: "", PANESCOPE_SHARED: "" };
  try {
    const panes = [tmux.pane];
    for (let i = 1; i < PANES; i++) panes.push(...(await tmux.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", tmux.session, "cat"])));
    const separate = await run(tmux, panes, false, seconds, env);
    const together = await run(tmux, panes, true, seconds, env);
    const note = `${AGENTS} agents × ${PANES} panes, ${seconds} s, one pane busy`;
    return [
      { id: "13a", label: "control clients, shared daemon", value: together.controlClients, baseline: separate.controlClients, baselineLabel: "10 stdio servers", unit: "count", better: "lower", note },
      { id: "13b", label: "RSS of every panescope process, shared", value: together.rss / 2 ** 20, baseline: separate.rss / 2 ** 20, baselineLabel: "10 stdio servers", unit: "MiB", better: "lower", note: "10 relays + the daemon" },
      { id: "13b′", label: "RSS of the daemon alone", value: together.rssOne / 2 ** 20, baseline: separate.rssOne / 2 ** 20, baselineLabel: "one stdio server (mean)", unit: "MiB", better: "lower", note: "each relay is a bare Node process" },
      { id: "13c", label: "CPU time over the period, shared", value: together.cpu * 1000, baseline: separate.cpu * 1000, baselineLabel: "10 stdio servers", unit: "ms", better: "lower", note },
    ];
  } finally {
    await tmux.kill();
    rmSync(runtime, { recursive: true, force: true });
  }
}
