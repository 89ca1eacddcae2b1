// Figure 2c, a read's own work: a pane printed more lines than the emulator keeps since the last
// read (a flood read's usual case), then one `capture_since` asks for 16 KiB. The observer's work
// to answer (changed rows read out of the emulator, raw output stripped, the cursor issued), in this
// process from src/, vs serializing that same answer to JSON: the least any server pays to send it.
// Parsing is not in it: the screen has applied every byte before each timed read. This is what a
// read costs the thread that answers it, whatever else that thread is doing (figure 5).
import { randomBytes } from "node:crypto";
import { PaneObserver } from "../src/observe/pane/observer.js";
import { median, type Result } from "./lib/format.js";

/** Lines between two reads: more than the 1024 lines the emulator holds, as in a flood. */
const LINES_PER_READ = 1500;
const MAX_BYTES = 16 * 1024;

/** What twenty flooding panes print (figure 5's flooders): `yes`, `seq` and a coloured counter. */
function floodLines(read: number): string {
  const lines: string[] = [];
  for (let i = 0; i < LINES_PER_READ; i++) {
    const n = read * LINES_PER_READ + i;
    if (i % 3 === 0) lines.push("pane 0 says yes");
    else if (i % 3 === 1) lines.push(String(n));
    else lines.push(`\x1b[3${n % 7}mpane2\x1b[0m ${n}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

export async function readCost(quick: boolean): Promise<Result[]> {
  const reads = quick ? 60 : 300;
  const warmups = 20;
  const pane = new PaneObserver({
    identity: { paneId: "%0", panePid: 1, serverPid: 1, serverStart: 1, instance: randomBytes(8) },
    cols: 80,
    rows: 24,
    key: randomBytes(32),
  });
  try {
    let { cursor } = await pane.read();
    const ours: number[] = [];
    const serialize: number[] = [];
    let rows = 0;
    for (let i = -warmups; i < reads; i++) {
      pane.ingest(Buffer.from(floodLines(i + warmups)));
      await pane.screenText(); // every byte parsed: only the read's own work is timed
      const t0 = performance.now();
      const delta = await pane.read(cursor, { maxBytes: MAX_BYTES });
      const t1 = performance.now();
      const json = JSON.stringify(delta);
      const t2 = performance.now();
      if (json.length < MAX_BYTES / 2 || delta.missed) throw new Error("read cost: the answer is not a full 16 KiB read of news");
      cursor = delta.cursor;
      if (i < 0) continue;
      ours.push(t1 - t0);
      serialize.push(t2 - t1);
      rows += delta.rows.length + delta.truncated.rows;
    }
    return [
      {
        id: "2c",
        label: "a 16 KiB read of a flooding pane: its work",
        value: median(ours),
        baseline: median(serialize),
        baselineLabel: "JSON of the same answer",
        unit: "ms",
        better: "lower",
        note: `in-process, ${reads} reads, each after ${LINES_PER_READ} lines; ${Math.round(rows / reads)} changed rows a read, cut to 16 KiB`,
      },
    ];
  } finally {
    pane.dispose();
  }
}
