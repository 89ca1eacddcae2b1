// Figures 2c and 2d's measuring process, run by read-cost.ts on the built dist/ (plain JS, in a process of
// its own: run after figure 1 in the bench's process, the same reads took 5.2× instead of 3.6–3.8×
// their JSON, with that figure's garbage in the heap). Prints one JSON line.
import { randomBytes } from "node:crypto";
import { PaneObserver } from "../dist/observe/pane/observer.js";
import { renderDelta } from "../dist/mcp/render.js";
import { structured } from "../dist/mcp/since.js";
import { ok } from "../dist/mcp/results.js";

const [readsArg = "60", linesArg = "1500", maxBytesArg = "16384"] = process.argv.slice(2);
const reads = Number(readsArg);
const linesPerRead = Number(linesArg);
const maxBytes = Number(maxBytesArg);
const warmups = 20;

/** What twenty flooding panes print (figure 5's flooders): `yes`, `seq` and a coloured counter. */
function floodLines(read) {
  const lines = [];
  for (let i = 0; i < linesPerRead; i++) {
    const n = read * linesPerRead + i;
    if (i % 3 === 0) lines.push("pane 0 says yes");
    else if (i % 3 === 1) lines.push(String(n));
    else lines.push(`\x1b[3${n % 7}mpane2\x1b[0m ${n}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}

const pane = new PaneObserver({
  identity: { paneId: "%0", panePid: 1, serverPid: 1, serverStart: 1, instance: randomBytes(8) },
  cols: 80,
  rows: 24,
  key: randomBytes(32),
});
let { cursor } = await pane.read();
const ours = [];
const whole = [];
const serialize = [];
let rows = 0;
for (let i = -warmups; i < reads; i++) {
  pane.ingest(Buffer.from(floodLines(i + warmups)));
  await pane.screenText(); // every byte parsed: only the read's own work is timed
  const t0 = performance.now();
  const delta = await pane.read(cursor, { maxBytes });
  const t1 = performance.now();
  const json = JSON.stringify(delta);
  const t2 = performance.now();
  // What capture_since adds (tools/capture-since.ts): the text view, then the JSON-RPC line sent.
  const result = ok({ ...structured(delta), waitMs: 0, waitCapMs: 30000, waitClamped: false, waitEnded: "none" }, renderDelta(delta, { given: cursor, view: "rows" }));
  const line = `${JSON.stringify({ jsonrpc: "2.0", id: i, result })}\n`;
  const t3 = performance.now();
  if (json.length < maxBytes / 2 || delta.missed || line.length < maxBytes) throw new Error("read cost: the answer is not a full read of news");
  cursor = delta.cursor;
  if (i < 0) continue;
  ours.push(t1 - t0);
  whole.push(t1 - t0 + (t3 - t2));
  serialize.push(t2 - t1);
  rows += delta.rows.length + delta.truncated.rows;
}
pane.dispose();
process.stdout.write(`${JSON.stringify({ ours, whole, serialize, rows: rows / reads })}\n`);
