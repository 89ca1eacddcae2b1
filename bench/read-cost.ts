// Figures 2c and 2d, a read's own work: a pane printed more lines than the emulator keeps since the last
// read (a flood read's usual case), then one `capture_since` asks for 16 KiB. The observer's work
// to answer (changed rows read out of the emulator, raw output stripped, the cursor issued), on the
// built dist/ in a process of its own (read-cost-child.mjs), vs serializing that same answer to
// JSON: the least any server pays to send it. Parsing is not in it: the screen has applied every
// byte before each timed read. This is what a read costs the thread that answers it, whatever else
// that thread is doing (figure 5).
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { median, type Result } from "./lib/format.js";

/** Lines between two reads: more than the 1024 lines the emulator holds, as in a flood. */
const LINES_PER_READ = 1500;
const MAX_BYTES = 16 * 1024;

interface Costs {
  ours: number[];
  /** ours plus what the tool adds: the text view and the JSON-RPC line. */
  whole: number[];
  serialize: number[];
  rows: number;
}

function child(reads: number): Promise<Costs> {
  const script = resolve(import.meta.dirname, "read-cost-child.mjs");
  return new Promise((done, fail) => {
    execFile(process.execPath, [script, String(reads), String(LINES_PER_READ), String(MAX_BYTES)], { cwd: resolve(import.meta.dirname, "..") }, (error, stdout) => {
      if (error) fail(error);
      else done(JSON.parse(stdout) as Costs);
    });
  });
}

export async function readCost(quick: boolean): Promise<Result[]> {
  const reads = quick ? 60 : 300;
  const { ours, whole, serialize, rows } = await child(reads);
  return [
    {
      id: "2c",
      label: "a 16 KiB read of a flooding pane: its work",
      value: median(ours),
      baseline: median(serialize),
      baselineLabel: "JSON of the same answer",
      unit: "ms",
      better: "lower",
      note: `built dist/, ${reads} reads, each after ${LINES_PER_READ} lines; ${Math.round(rows)} changed rows a read, cut to 16 KiB`,
    },
    {
      id: "2d",
      label: "the same read as capture_since answers it",
      value: median(whole),
      baseline: median(serialize),
      baselineLabel: "JSON of the same answer",
      unit: "ms",
      better: "lower",
      note: "2c plus the tool's text view and the JSON-RPC line it sends: the whole answer's work on the thread that answers",
    },
  ];
}
