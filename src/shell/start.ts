// Reaching the daemon of a tmux server, starting it on first use. Exactly one starts however many
// callers race: the one that creates the lock file (O_EXCL) spawns it, the others wait for its
// socket; the daemon itself also refuses to bind over a live socket. A lock left by a starter
// that died is taken over once its pid is gone (it holds its pid from the start: takeLock). No daemon is started for a tmux server that is not
// running, unless the call may start one (open). A daemon of another protocol is restarted when
// this caller is its only client, else the caller is told what to do. A read-only call may ride
// with the hello (one round trip, not two); its answer is taken only from a daemon that welcomed
// our protocol, else it is dropped and the call is sent again once a daemon of ours answers.
import { fs } from "../builtins.js";
import { PanescopeError } from "../errors.js";
import { packageFile } from "../package-files.js";
import { version } from "../version.js";
import { DaemonConnection, type Call } from "./client.js";
import { ensureTrustedDir, socketState, type DaemonPaths, type ServerChoice } from "./paths.js";
import { probe } from "./probe.js";
import { HELLO, isWelcome, PROTOCOL, type Hello, type Response, type Welcome } from "./protocol.js";

const { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } = fs;

/** Long enough for a cold daemon on a loaded machine (it loads the SDK, zod and the hub). */
const START_TIMEOUT_MS = 20_000;
const RETRY_MS = 20;
/**
 * A daemon answers a hello from its event loop, asking tmux nothing: one that took the connection
 * and says nothing for this long is stopped (SIGSTOP, a debugger) or stuck, and every command
 * waited on it for ever. As long as a tmux command's limit (tmux/timeouts.ts).
 */
export const HELLO_TIMEOUT_MS = 10_000;
/** A log larger than this when a daemon starts is moved to `<log>.old` (docs/cli.md). */
export const LOG_ROTATE_BYTES = 1024 * 1024;

export interface DaemonStart {
  choice: ServerChoice;
  /** Quiet period after which the daemon exits with no clients (`panescope daemon --idle-ms`). */
  idleMs?: number;
  /**
   * The call fails without a running tmux server: none is started for a server that does not
   * answer (a `no-server` error instead). A daemon so started would only exit again, at once.
   */
  needsServer?: boolean;
}

export interface Connected {
  connection: DaemonConnection;
  welcome: Welcome;
  /** The answer to the call sent with the hello (reachDaemon's `call`), when one was given. */
  answer?: Promise<Response>;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === "EPERM";
  }
}

/** Connects and says hello (and sends `call` with it); undefined when no daemon answers there (absent, stale, or gone mid-hello). */
async function tryHello(paths: DaemonPaths, hello: Hello, call: Call | undefined): Promise<Connected | undefined> {
  const state = socketState(paths.socket);
  if (state === "absent") return undefined;
  if (state !== "ours") throw new PanescopeError("daemon", `refusing the daemon socket ${state.refused}`);
  let connection: DaemonConnection;
  try {
    connection = await DaemonConnection.open(paths.socket);
  } catch (error) {
    if (["ENOENT", "ECONNREFUSED"].includes(code(error) ?? "")) return undefined;
    throw new PanescopeError("daemon", `cannot connect to the daemon at ${paths.socket}: ${(error as Error).message}`, { cause: error });
  }
  const [welcomed, answer] = connection.requests([{ method: HELLO, params: { ...hello } }, ...(call === undefined ? [] : [call])]);
  // Settled by whoever awaits it; unawaited when the hello fails (the call is then dropped, never shown).
  answer?.catch(() => undefined);
  // A daemon that closes the connection before answering was exiting (idle): start again.
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), HELLO_TIMEOUT_MS)));
  const reply = await Promise.race([welcomed?.catch(() => undefined), silent]).finally(() => clearTimeout(timer));
  if (reply === "silent") {
    connection.close();
    throw silentDaemon(paths);
  }
  if (reply === undefined) return undefined;
  if (reply.error !== undefined || !isWelcome(reply.result)) {
    connection.close();
    throw new PanescopeError("daemon", `the daemon at ${paths.socket} did not accept ${HELLO} (${reply.error?.message ?? "no welcome"}): it is another program or a much older panescope; stop it and run the command again`);
  }
  return { connection, welcome: reply.result, ...(answer === undefined ? {} : { answer }) };
}

/** A daemon that took the connection and did not answer: which one (from its log), and what to do. */
function silentDaemon(paths: DaemonPaths): PanescopeError {
  let pid: string | undefined;
  try {
    pid = [...readFileSync(paths.log, "utf8").matchAll(/daemon pid (\d+) starting/g)].at(-1)?.[1];
  } catch {
    pid = undefined; // no log to name it by
  }
  const which = pid === undefined ? "the daemon" : `the daemon (pid ${pid}, the last started in its log)`;
  const stop = pid === undefined ? "stop it" : `\`kill -CONT ${pid}\` if it was stopped, else \`kill ${pid}\``;
  return new PanescopeError("daemon", `${which} at ${paths.socket} did not answer within ${HELLO_TIMEOUT_MS} ms: it is stopped or stuck (its log: ${paths.log}); ${stop}, then run the command again (a new daemon starts)`);
}

/**
 * An empty lock this old is stale: a lock is never seen empty unless its maker died between
 * creating it and writing its pid (a panescope before 2026-12-05 made it so), which takes far less.
 */
const EMPTY_LOCK_MS = 1000;

/**
 * Takes the start lock; false when a live process holds it. The lock appears with its pid already
 * in it: written to a file of our own, then linked to the lock's name (link, like O_EXCL, fails
 * when the name exists), so a starter that dies at any point never leaves an empty lock behind.
 */
function takeLock(path: string): boolean {
  const mine = `${path}.${process.pid}`;
  for (;;) {
    try {
      writeFileSync(mine, String(process.pid), { mode: 0o600 });
      linkSync(mine, path);
      return true;
    } catch (error) {
      if (code(error) !== "EEXIST") throw new PanescopeError("daemon", `cannot create the start lock ${path}: ${(error as Error).message}`, { cause: error });
    } finally {
      rmSync(mine, { force: true });
    }
    let holder: number;
    try {
      holder = Number(readFileSync(path, "utf8").trim() || "0");
      if (holder === 0 && Date.now() - statSync(path).mtimeMs < EMPTY_LOCK_MS) return false;
    } catch (error) {
      if (code(error) === "ENOENT") continue; // released meanwhile: try again
      throw error;
    }
    if (holder > 0 && alive(holder)) return false;
    // Its starter died while starting (its pid is gone, or it never wrote one): the lock is stale.
    try {
      unlinkSync(path);
    } catch (error) {
      if (code(error) !== "ENOENT") throw error;
    }
  }
}

/**
 * Opens the log for appending: what the daemons before wrote is kept, to say why they ended. One
 * that has grown past LOG_ROTATE_BYTES is renamed to `.old` first (replacing the one before), not
 * cut: a rename is atomic, copies nothing, and loses no line of a daemon still writing to it. Only
 * the starter holding the lock calls this. Returns the offset where the new daemon's lines begin.
 */
function openLog(path: string): { fd: number; from: number } {
  if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > LOG_ROTATE_BYTES) renameSync(path, `${path}.old`);
  const fd = openSync(path, "a", 0o600);
  return { fd, from: fstatSync(fd).size };
}

/** The last lines the daemon `pid` wrote (the log from `from` on), its start line left out: why it ended. */
function lastWords(path: string, from: number, pid: number | undefined): string {
  const lines = readFileSync(path).subarray(from).toString("utf8").split("\n");
  return lines.filter((line) => line !== "" && !line.includes(`daemon pid ${pid} starting`)).slice(-3).join("; ");
}

/** Spawns the daemon detached and waits for its ready line (or its exit, with its log's reason). */
async function spawnDaemon(paths: DaemonPaths, start: DaemonStart): Promise<void> {
  // Loaded only for a cold start: a read through a running daemon never needs it.
  const { spawn } = await import("node:child_process");
  const cli = packageFile("dist/cli.js");
  const args = [cli, "daemon", "-S", paths.tmuxSocket, ...(start.choice.tmux === undefined ? [] : ["--tmux", start.choice.tmux]), ...(start.idleMs === undefined ? [] : ["--idle-ms", String(start.idleMs)])];
  const log = openLog(paths.log);
  // Node on our own cli.js, an argv array, no shell (test/security/no-shell.test.ts allows this one).
  const child = spawn(process.execPath, args, { shell: false, detached: true, stdio: ["ignore", "pipe", log.fd], cwd: "/" });
  closeSync(log.fd);
  const out = child.stdout;
  if (out === null) throw new PanescopeError("internal", "the daemon was spawned without a stdout pipe");
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(() => reject(new PanescopeError("daemon", `the daemon (pid ${child.pid}) did not start within ${START_TIMEOUT_MS} ms: see ${paths.log}`)), START_TIMEOUT_MS);
    out.setEncoding("utf8");
    out.on("data", (chunk: string) => {
      said += chunk;
      if (!said.includes("\n")) return;
      clearTimeout(timer);
      out.destroy();
      child.unref();
      resolve();
    });
    child.once("exit", (status) => {
      clearTimeout(timer);
      const why = lastWords(paths.log, log.from, child.pid);
      reject(new PanescopeError("daemon", `the daemon exited (status ${status}) before it was ready${why ? `: ${why}` : ""} (log: ${paths.log})`));
    });
  });
}

/** Throws `no-server` when nothing answers on the tmux server's socket. */
async function requireServer(paths: DaemonPaths): Promise<void> {
  if ((await probe(paths.tmuxSocket)) === "absent") throw new PanescopeError("no-server", `no tmux server is running on ${paths.tmuxSocket}`);
}

/** Starts a daemon unless another caller is starting one; then waits for a daemon to answer. */
async function startAndConnect(paths: DaemonPaths, start: DaemonStart, hello: Hello, call: Call | undefined): Promise<Connected> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const found = await tryHello(paths, hello, call);
    if (found) return found;
    if (takeLock(paths.lock)) {
      try {
        const late = await tryHello(paths, hello, call);
        if (late) return late;
        if (start.needsServer === true) await requireServer(paths);
        // Nothing answers on it: a socket left by a daemon that was killed.
        if (socketState(paths.socket) === "ours") unlinkSync(paths.socket);
        await spawnDaemon(paths, start);
      } finally {
        unlinkSync(paths.lock);
      }
      continue;
    }
    await delay(RETRY_MS);
  }
  throw new PanescopeError("daemon", `no daemon answered at ${paths.socket} within ${START_TIMEOUT_MS} ms: see ${paths.log}`);
}

/** Stops a daemon of another protocol (we are its only client), and waits until its socket is free. */
async function restart(paths: DaemonPaths, found: Connected): Promise<void> {
  found.connection.close();
  process.kill(found.welcome.pid, "SIGTERM");
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (alive(found.welcome.pid) && Date.now() < deadline) await delay(RETRY_MS);
}

/**
 * A connection to this tmux server's daemon that speaks our protocol, started if need be. `call`,
 * sent with the hello, must be read-only: it may reach a daemon that is then refused or restarted,
 * and is sent again to the next one (a `send` retried so could type twice).
 */
export async function reachDaemon(paths: DaemonPaths, start: DaemonStart, hello: Omit<Hello, "protocol" | "version">, call?: Call): Promise<Connected> {
  try {
    ensureTrustedDir(paths.dir);
  } catch (error) {
    // Beside a tmux socket whose directory does not exist (XDG_RUNTIME_DIR unset): no server is there either.
    if (start.needsServer === true) await requireServer(paths);
    throw error;
  }
  const full: Hello = { protocol: PROTOCOL, version, ...hello };
  let found = await startAndConnect(paths, start, full, call);
  if (found.welcome.protocol === PROTOCOL) return found;
  const theirs = `the daemon (pid ${found.welcome.pid}, panescope ${found.welcome.version}) speaks protocol ${found.welcome.protocol}, this panescope ${version} speaks ${PROTOCOL}`;
  if (found.welcome.clients > 1) {
    found.connection.close();
    throw new PanescopeError("daemon", `${theirs}, and ${found.welcome.clients - 1} other client(s) use it: stop them (or \`kill ${found.welcome.pid}\`), then run the command again`);
  }
  await restart(paths, found);
  found = await startAndConnect(paths, start, full, call);
  if (found.welcome.protocol !== PROTOCOL) throw new PanescopeError("daemon", `${theirs} even after a restart: is another panescope starting it?`);
  return found;
}
