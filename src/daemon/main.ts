// `panescope daemon`: the shared observer of one tmux server. Started detached by the CLI (or
// `mcp --shared`) on first use; listens on a unix socket in a 0700 directory of ours; prints one
// ready line on stdout once it listens; exits after a quiet period with no clients, once its tmux
// server is gone and no client is left (removing its log then, unless the log tells of a daemon
// that ended badly: log.ts), on SIGTERM, or at once when another daemon already answers on its
// socket (two racing starts make one).
import { createServer, type Server, type Socket } from "node:net";
import { lstatSync, unlinkSync } from "node:fs";
import type { DaemonOptions } from "../options/shell.js";
import { isPanescopeError } from "../errors.js";
import { version } from "../version.js";
import { daemonPaths, requireTrustedDir, type DaemonPaths } from "../shell/paths.js";
import { probe } from "../shell/probe.js";
import { PROTOCOL, type Welcome } from "../shell/protocol.js";
import { BusyReaders } from "./busy.js";
import { acceptConnection } from "./connection.js";
import { removeLog, startLine, stoppedLine } from "./log.js";
import { SharedObserver } from "./observer.js";
import { ReaderCursors } from "./readers.js";

const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);

/** How often a daemon with no client looks for its tmux server (and exits once it is gone). */
const SERVER_CHECK_MS = 5_000;

/** Binds the socket 0600 (umask), taking over a dead daemon's file; false when a live one holds it. */
async function bind(listener: Server, paths: DaemonPaths): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const umask = process.umask(0o077);
    try {
      await new Promise<void>((resolve, reject) => {
        listener.once("error", reject);
        listener.listen(paths.socket, () => {
          listener.off("error", reject);
          resolve();
        });
      });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      if ((await probe(paths.socket)) === "answers") return false;
      unlinkSync(paths.socket);
    } finally {
      process.umask(umask);
    }
  }
  return false;
}

export async function main(options: DaemonOptions): Promise<number> {
  const paths = daemonPaths(options.server, process.env);
  // The first line of each daemon: the log keeps its predecessors' lines (shell/start.ts).
  log(startLine(process.pid, paths.tmuxSocket));
  requireTrustedDir(paths.dir);
  const observer = new SharedObserver({ ...options.server, socketPath: paths.tmuxSocket }, (line) => log(line), options.maxPanes);
  // A tmux that cannot run (a mistyped --tmux), or a program that runs but is not tmux (`-V` fails
  // or prints nothing: --tmux /bin/false), would fail every call of every client until the idle
  // exit, and a later command's --tmux could not replace it: exit before ready, saying why (the
  // command that started the daemon prints it), so the next command starts one with its own tmux.
  const tmux = await observer.server.requireSupported().catch((error: unknown) => error);
  if (tmux instanceof Error) {
    const named = isPanescopeError(tmux, "tmux-missing") || isPanescopeError(tmux, "tmux-unsupported") || isPanescopeError(tmux, "protocol");
    log(named ? tmux.message : `"${observer.server.tmux}" is not a tmux panescope can use (${tmux.message}): pass another binary with --tmux PATH`);
    await observer.close();
    return 2;
  }
  const readers = new ReaderCursors(paths.readers, log, paths.tmuxSocket);
  const sockets = new Set<Socket>();
  const startedAt = Date.now();
  let idle: NodeJS.Timeout | undefined;
  let serverCheck: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  const listener = createServer({ allowHalfOpen: true });
  const ownSocket = (): string | undefined => {
    try {
      const stats = lstatSync(paths.socket);
      return `${stats.dev}:${stats.ino}`;
    } catch {
      return undefined;
    }
  };
  /** Our socket file's identity once bound: stop removes that file only. */
  const bound: { id?: string | undefined } = {};
  const stop = (why: string, serverGone = false): Promise<void> => {
    stopping ??= (async () => {
      log(`stopping: ${why}`);
      clearTimeout(idle);
      clearInterval(serverCheck);
      // Only our own socket file: a daemon started after us may have bound the path again.
      if (bound.id !== undefined && ownSocket() === bound.id) unlinkSync(paths.socket);
      listener.close();
      for (const socket of sockets) socket.destroy();
      await observer.close();
      log(stoppedLine(process.pid, why));
      // Its server gone, the log has nothing more to say, unless a daemon in it ended badly (log.ts).
      // The readers' cursors stay: a server started again on this socket answers them server-restarted.
      if (serverGone) forgetLog();
    })();
    return stopping;
  };
  const forgetLog = (): void => {
    try {
      const kept = removeLog(paths, process.pid);
      if (kept !== undefined) log(`the log is kept: ${kept}`);
    } catch (error) {
      log(`the log is kept: ${(error as Error).message}`);
    }
  };
  const armIdle = (): void => {
    clearTimeout(idle);
    if (sockets.size === 0 && options.idleMs > 0) idle = setTimeout(() => void stop(`no client for ${options.idleMs} ms`), options.idleMs);
  };
  /**
   * With no client left, a daemon whose tmux server is gone has nothing to watch: it exits rather
   * than hold its memory until the idle exit (a test suite's private servers each left one). Looked
   * at when the last client leaves, then every SERVER_CHECK_MS; never before a first client (a
   * command may be about to start the server through it). A later command starts a new daemon.
   */
  const checkServer = async (): Promise<void> => {
    if (sockets.size > 0 || stopping) return;
    const server = await probe(paths.tmuxSocket);
    if (server === "absent" && sockets.size === 0) void stop(`the tmux server (${paths.tmuxSocket}) is gone and no client is left`, true);
  };
  const lastClientLeft = (): void => {
    armIdle();
    clearInterval(serverCheck);
    serverCheck = setInterval(() => void checkServer(), SERVER_CHECK_MS).unref();
    void checkServer();
  };
  const host = {
    readers,
    busy: new BusyReaders(),
    warn: log,
    welcome: (): Welcome => ({ protocol: PROTOCOL, version, pid: process.pid, clients: sockets.size, startedAt, endNotice: true }),
    serve: observer.serve.bind(observer),
  };
  listener.on("connection", (socket) => {
    if (stopping) return void socket.destroy();
    // The directory is what keeps other users out (no peer uid in node:net): checked at every connection.
    try {
      requireTrustedDir(paths.dir);
    } catch (error) {
      log(`refused a connection: ${(error as Error).message}`);
      socket.end(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: (error as Error).message } })}\n`);
      return;
    }
    sockets.add(socket);
    clearTimeout(idle);
    clearInterval(serverCheck);
    socket.on("close", () => {
      sockets.delete(socket);
      if (sockets.size === 0) lastClientLeft();
    });
    acceptConnection(socket, host);
  });
  if (!(await bind(listener, paths))) {
    log("another daemon answers on the socket: exiting");
    await observer.close();
    log(stoppedLine(process.pid, "another daemon answers on the socket"));
    return 0;
  }
  bound.id = ownSocket();
  // A daemon has no terminal: what ends it must be in its log (the CLI points there).
  for (const event of ["uncaughtException", "unhandledRejection"] as const) {
    process.on(event, (error: unknown) => {
      log(`${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(70);
    });
  }
  // `on`, not `once`: while a tmux child runs, execa's signal-exit listens too, and re-raises a
  // signal it finds no other listener for, which killed the daemon mid-stop (no clean close of its
  // control clients, no "stopped" line). A second signal finds the stop under way.
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  log(`ready: socket ${paths.socket}, idle exit after ${options.idleMs} ms`);
  // The command that started us may be gone (Ctrl-C or a kill during a cold start): its closed pipe
  // then refuses the line (EPIPE), which ended a daemon already bound, and maybe serving, with 70.
  process.stdout.on("error", () => undefined);
  process.stdout.write(`ready ${process.pid}\n`);
  armIdle();
  await new Promise<void>((resolve) => listener.once("close", resolve));
  await stop("closed");
  // Stopped, it is gone: no handle may keep it (its stdout pipe did, seconds after its stop, under
  // load: a command after it waited on a daemon that had said "stopped"). Its log is written
  // synchronously (a file), so nothing said is lost.
  setImmediate(() => process.exit(0));
  return 0;
}
