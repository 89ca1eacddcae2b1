// Figure 4's measuring process, run by memory.ts as `node --expose-gc` on the built dist/ (plain
// JS, so no TypeScript loader inflates the numbers): RSS and heap with no observers, then with one
// observer per pane after every pane printed its lines. Prints one JSON line.
import { randomBytes } from "node:crypto";
import { TmuxServer } from "../dist/tmux/server.js";
import { Hub } from "../dist/watch/hub.js";

const [socket = "", panesArg = "[]", lastLine = ""] = process.argv.slice(2);
const panes = JSON.parse(panesArg);
const gc = globalThis.gc;
if (!gc) throw new Error("memory-child needs node --expose-gc");

function settled() {
  for (let i = 0; i < 3; i++) gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

const server = new TmuxServer({ socketName: socket });
const hub = new Hub({ server, key: randomBytes(32), maxPanes: panes.length + 10 });
// The baseline: everything loaded and a hub, but no pane watched (one tmux round trip warms execa).
await server.run(["display-message", "-p", "x"]);
const before = settled();
const observers = [];
for (const pane of panes) observers.push(await hub.observer(pane));
await server.run(["wait-for", "-S", "go"]);
for (const observer of observers) {
  for (;;) {
    const { rows } = await observer.screenText();
    if (rows.some((row) => row === lastLine)) break;
    await new Promise((resolve) => setTimeout(resolve, 20)); // output still on its way from tmux
  }
}
const after = settled();
process.stdout.write(`${JSON.stringify({ before, after, panes: observers.length })}\n`);
await hub.close();
process.exit(0);
