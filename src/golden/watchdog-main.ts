// The golden watchdog's program (started by watchdog.ts, one per owner process, detached): it
// reads the owner's orders from stdin and, at EOF — the owner has ended, however it ended — kills
// each listed server and removes its socket file and HOME. It never acts while the pipe is open,
// and touches only what an order named (parseOrder checks each). tmux is run as everywhere else
// (tmux/server.ts: an argv array, no shell, a time limit).
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { TmuxServer } from "../tmux/server.js";
import { parseOrder, type Guarded } from "./watchdog.js";

/**
 * When to look again after the first kill: a tmux client the owner started just before it died
 * (its `start-server; new-session`, or a control client's `attach-session`) can still bring a
 * server or its socket file back after it. A few seconds in all, then the watchdog exits.
 */
const AGAIN_MS = [1000, 2000];

/**
 * `start-server` first waits on tmux's `<socket>.lock` for a server the dead owner's client was
 * still starting (or starts one), so kill-server then finds it (launch.ts discardServer, the same).
 * Its failures are expected (no server left) and ignored.
 */
async function kill(guarded: Guarded): Promise<void> {
  const server = new TmuxServer({ tmux: guarded.tmux, socketPath: guarded.socket });
  await server.runMany([["-f", "/dev/null", "start-server"], ["kill-server"]]).catch(() => undefined);
  // tmux 3.3a leaves its socket file after kill-server; a client racing the lock leaves the lock file.
  await Promise.all([rm(guarded.socket, { force: true }), rm(`${guarded.socket}.lock`, { force: true })]);
}

async function reap(guarded: Guarded): Promise<void> {
  await kill(guarded);
  await rm(guarded.home, { recursive: true, force: true }).catch(() => undefined);
  for (const ms of AGAIN_MS) {
    await sleep(ms);
    if (existsSync(guarded.socket)) await kill(guarded);
  }
}

const live = new Map<string, Guarded>();
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  const order = parseOrder(line);
  if (order === undefined) return;
  if ("add" in order) live.set(order.add.name, order.add);
  else live.delete(order.drop);
});
// A read error means the same as EOF: nobody can give orders any more.
process.stdin.on("error", () => lines.close());
lines.once("close", () => {
  void Promise.allSettled([...live.values()].map(reap)).finally(() => process.exit(0));
});
