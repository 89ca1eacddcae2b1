// The bench runner: measures each figure beside its baseline in the same run and prints one table.
// Usage: npx tsx bench/run.ts [--quick] [--json [file]] [--only 1,3]
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { formatMachine, formatTable, parseArgs, toReport, type Machine, type Result } from "./lib/format.js";
import { formatVerdicts, judge } from "./goals.js";
import { flood } from "./flood.js";
import { idle } from "./idle.js";
import { readCost } from "./read-cost.js";
import { wake } from "./wake.js";
import { memory } from "./memory.js";
import { soak } from "./soak.js";
import { economy } from "./economy.js";
import { widths } from "./widths.js";
import { agents } from "./agents.js";
import { history } from "./history.js";
import { audit } from "./audit.js";
import { startup } from "./startup.js";
import { fleet } from "./fleet.js";
import { shell } from "./shell.js";
import { shared } from "./shared.js";

type Figure = (quick: boolean) => Promise<Result[]>;

const FIGURES: Array<[string, string, Figure]> = [
  ["1", "flood ingest", flood],
  ["2", "idle read, a read's own work", async (quick) => [...(await idle(quick)), ...(await readCost(quick))]],
  ["3", "wake latency", wake],
  ["4", "memory", memory],
  ["5", "soak", soak],
  ["6", "agent economy", economy],
  ["7", "many agents", agents],
  ["8", "long history", history],
  ["9", "replica audit", audit],
  ["10", "width policy", widths],
  ["11", "start-up", startup],
  ["12", "shell read", shell],
  ["13", "shared daemon", shared],
  ["14", "500 panes", fleet],
  ["15", "soak, one thread", (quick) => soak(quick, true)],
];

function machine(): Machine {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "unknown CPU";
  return {
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    cpu: model.trim(),
    nproc: Number(execFileSync("nproc", { encoding: "utf8" }).trim()),
    memTotal: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    tmux: execFileSync("tmux", ["-V"], { encoding: "utf8" }).trim(),
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const results: Result[] = [];
  for (const [number, name, figure] of FIGURES) {
    if (options.only.length > 0 && !options.only.includes(number)) continue;
    const t0 = performance.now();
    process.stderr.write(`bench: figure ${number}, ${name}…`);
    results.push(...(await figure(options.quick)));
    process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  const about = machine();
  const out = options.json === "-" ? process.stderr : process.stdout;
  const verdicts = judge(results);
  const goals = verdicts.length > 0 ? `\n${formatVerdicts(verdicts)}\n` : "";
  out.write(`\npanescope bench${options.quick ? " (--quick)" : ""}, ${seconds.toFixed(0)} s\n${formatMachine(about)}\n\n${formatTable(results)}\n${goals}`);
  if (options.json !== undefined) {
    const json = `${JSON.stringify({ ...toReport(about, options.quick, seconds, results), goals: verdicts }, null, 2)}\n`;
    if (options.json === "-") process.stdout.write(json);
    else writeFileSync(options.json, json);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
