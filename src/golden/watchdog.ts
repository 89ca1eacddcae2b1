// The owner's half of the golden watchdog: one detached `node watchdog-main.js` per process that
// launches scenarios, told over its stdin pipe which private servers and HOMEs are live. Only this
// process holds the pipe's write end (Node opens every fd close-on-exec), so however it ends —
// SIGKILL and OOM kills included — the watchdog reads EOF at once, no polling, and removes what is
// still listed (watchdog-main.ts). Costs one spawn per process and one short pipe write a scenario.
import { spawn, type ChildProcess } from "node:child_process";
import { fs, path } from "../builtins.js";
import { packageFile } from "../package-files.js";

/** One scenario's leftovers: its private server and the program's HOME. */
export interface Guarded {
  /** The tmux binary, as an absolute path or a name looked up on PATH. */
  tmux: string;
  /** The -L socket name (launch.ts: panescope-golden-<pid>-<8 hex>). */
  name: string;
  /** The socket file by tmux's rule; the watchdog addresses the server by it (`-S`). */
  socket: string;
  home: string;
}

export type Order = { add: Guarded } | { drop: string };

const NAME = /^panescope-golden-\d+-[0-9a-f]{8}$/;
const HOME_PREFIX = "panescope-golden-home-";

/** The order as one line on the pipe. */
export function orderLine(order: Order): string {
  return `${JSON.stringify(order)}\n`;
}

/**
 * A line read back as an order, or undefined: only our own scenarios' names, sockets and HOMEs
 * pass, so a stray or damaged line can never make the watchdog kill another server or remove
 * another folder.
 */
export function parseOrder(line: string): Order | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const order = value as { add?: Partial<Record<keyof Guarded, unknown>>; drop?: unknown };
  if (typeof order.drop === "string") return NAME.test(order.drop) ? { drop: order.drop } : undefined;
  const add = order.add;
  if (typeof add !== "object" || add === null) return undefined;
  const { tmux, name, socket, home } = add;
  if (typeof tmux !== "string" || typeof name !== "string" || typeof socket !== "string" || typeof home !== "string") return undefined;
  if (tmux === "" || tmux.includes("\0") || !NAME.test(name)) return undefined;
  if (!path.isAbsolute(socket) || path.basename(socket) !== name || socket.includes("\0")) return undefined;
  if (!path.isAbsolute(home) || !path.basename(home).startsWith(HOME_PREFIX) || home.includes("\0") || path.normalize(home) !== home) return undefined;
  return { add: { tmux, name, socket, home } };
}

/** The socket file of a -L name, by tmux's rule ($TMUX_TMPDIR or /tmp, then tmux-<uid>). */
export function socketPathOf(name: string): string {
  return path.join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, name);
}

export const WATCHDOG_MAIN = "dist/golden/watchdog-main.js";

let child: ChildProcess | undefined;
let warned = false;
const live = new Map<string, Guarded>();

/** The running watchdog's pid (for tests), or undefined before the first scenario. */
export function watchdogPid(): number | undefined {
  return child?.pid;
}

/**
 * Lists a scenario with the watchdog before its server starts; resolves once the order is in the
 * pipe, so a kill from then on is seen. Never fails: without a watchdog a scenario still runs
 * (a forgotten session's server still ends with its control client, launch.ts endWithOwner).
 */
export async function guard(guarded: Guarded): Promise<void> {
  watchdog(); // a watchdog started now is told what was live before this one
  live.set(guarded.name, guarded);
  await send({ add: guarded });
}

/** Takes a scenario off the list once close() or a discard removed it. */
export function release(name: string | undefined): void {
  if (name !== undefined && live.delete(name)) void send({ drop: name });
}

function send(order: Order): Promise<void> {
  const pipe = watchdog()?.stdin;
  if (pipe === null || pipe === undefined || pipe.destroyed) return Promise.resolve();
  return new Promise((done) => pipe.write(orderLine(order), () => done()));
}

/** The watchdog, started at the first scenario (again if it died: it is told all that is live). */
function watchdog(): ChildProcess | undefined {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) return child;
  const main = packageFile(WATCHDOG_MAIN);
  if (!fs.existsSync(main)) {
    if (!warned) process.stderr.write(`panescope: ${main} is missing (run npm run build): a golden run killed with SIGKILL leaves its tmux servers' files behind\n`);
    warned = true;
    return undefined;
  }
  // NODE_OPTIONS is the owner's (--inspect would take its port twice); cwd / holds no folder of ours.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const started = spawn(process.execPath, [main], { stdio: ["pipe", "ignore", "ignore"], detached: true, cwd: "/", env });
  started.on("error", () => undefined);
  started.stdin?.on("error", () => undefined); // EPIPE once it died: the next scenario starts another
  // Neither the process nor its pipe keeps this one alive: an owner that is done just exits.
  started.unref();
  (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child = started;
  for (const guarded of live.values()) started.stdin?.write(orderLine({ add: guarded }));
  return started;
}
