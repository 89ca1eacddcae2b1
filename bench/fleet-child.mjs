// Figure 12's measuring process, run by fleet.ts as `node --expose-gc` on the built dist/ (plain JS,
// as memory-child.mjs): one hub, first watching one pane (the idle process, an idle read's
// latency), then every pane of the fleet read once; RSS, CPU over a quiet window and the latency
// of reads spread over all of them. Prints one JSON line.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { TmuxServer } from "../dist/tmux/server.js";
import { Hub } from "../dist/watch/hub.js";

const [socket = "", panesArg = "[]", windowArg = "60000", readsArg = "400"] = process.argv.slice(2);
const panes = JSON.parse(panesArg);
const windowMs = Number(windowArg);
const reads = Number(readsArg);
const gc = globalThis.gc;
if (!gc) throw new Error("fleet-child needs node --expose-gc");

function rss() {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().rss;
}

/** CPU time (ms) a process has used: utime + stime of /proc/PID/stat, in clock ticks of 10 ms. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU over `ms` of holding the watches and nothing else, in ms per second: ours and tmux's. */
async function idleCpu(ms, tmuxPid) {
  const before = process.cpuUsage();
  const tmuxBefore = cpuOf(tmuxPid);
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  const seconds = (performance.now() - t0) / 1000;
  return { ours: (used.user + used.system) / 1000 / seconds, tmux: (cpuOf(tmuxPid) - tmuxBefore) / seconds };
}

/** `count` reads with nothing new, each of a pane drawn by `pick`: latencies (ms), answers flagged missed. */
async function readTimes(hub, cursors, count, pick) {
  const times = [];
  let missed = 0;
  for (let i = 0; i < count; i++) {
    const pane = pick(i);
    const t0 = performance.now();
    const delta = await hub.capture({ cursor: cursors.get(pane) });
    times.push(performance.now() - t0);
    if (delta.missed) missed++;
    cursors.set(pane, delta.cursor);
  }
  return { times, missed };
}

const server = new TmuxServer({ socketName: socket });
// Room for the whole fleet: the figure is what holding 500 panes costs (fleet.ts says what the
// MCP server's default cap does with them).
const hub = new Hub({ server, key: randomBytes(32), maxPanes: panes.length });
const [tmuxPid = ""] = await server.run(["display-message", "-p", "#{pid}"]); // also warms execa
const first = panes[0];
const cursors = new Map([[first, (await hub.capture({ paneId: first })).cursor]]);
const idle = {
  rss: rss(),
  cpu: await idleCpu(windowMs / 2, Number(tmuxPid)),
  reads: await readTimes(hub, cursors, reads, () => first),
};

const t0 = performance.now();
for (const pane of panes.slice(1)) cursors.set(pane, (await hub.capture({ paneId: pane })).cursor);
const firstReadsMs = performance.now() - t0;
const watched = hub.watching;
// A prime stride visits every pane in a scattered order (500 is not a multiple of it).
const fleet = {
  rss: rss(),
  cpu: await idleCpu(windowMs, Number(tmuxPid)),
  reads: await readTimes(hub, cursors, reads, (i) => panes[(i * 211 + 7) % panes.length]),
};
process.stdout.write(`${JSON.stringify({ idle, fleet, firstReadsMs, watched: watched.length, streaming: watched.filter((w) => w.streaming).length })}\n`);
await hub.close();
process.exit(0);
