// `panescope daemon`: the shared observer of one tmux server. Started detached by the CLI (or
// `mcp --shared`) on first use; listens on a unix socket in a 0700 directory of ours; prints one
// ready line on stdout once it listens; exits after a quiet period with no clients, on SIGTERM,
// or at once when another daemon already answers on its socket (two racing starts make one).
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { lstatSync, unlinkSync } from "node:fs";
import type { DaemonOptions } from "../options/shell.js";
import { version } from "../version.js";
import { daemonPaths, requireTrustedDir, type DaemonPaths } from "../shell/paths.js";
import { PROTOCOL, type Welcome } from "../shell/protocol.js";
import { acceptConnection } from "./connection.js";
import { SharedObserver } from "./observer.js";
import { ReaderCursors } from "./readers.js";

const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);

/** True when a daemon answers on the socket (a connection is accepted). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

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
      if (await answers(paths.socket)) return false;
      unlinkSync(paths.socket);
    } finally {
      process.umask(umask);
    }
  }
  return false;
}

export async function main(options: DaemonOptions): Promise<number> {
  const paths = daemonPaths(options.server, process.env);
  requireTrustedDir(paths.dir);
  const observer = new SharedObserver({ ...options.server, socketPath: paths.tmuxSocket }, (line) => log(line), options.maxPanes);
  const readers = new ReaderCursors(paths.readers, log);
  const sockets = new Set<Socket>();
  const startedAt = Date.now();
  let idle: NodeJS.Timeout | undefined;
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
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log(`stopping: ${why}`);
      clearTimeout(idle);
      // Only our own socket file: a daemon started after us may have bound the path again.
      if (bound.id !== undefined && ownSocket() === bound.id) unlinkSync(paths.socket);
      listener.close();
      for (const socket of sockets) socket.destroy();
      await observer.close();
    })();
    return stopping;
  };
  const armIdle = (): void => {
    clearTimeout(idle);
    if (sockets.size === 0 && options.idleMs > 0) idle = setTimeout(() => void stop(`no client for ${options.idleMs} ms`), options.idleMs);
  };
  const host = {
    readers,
    warn: log,
    welcome: (): Welcome => ({ protocol: PROTOCOL, version, pid: process.pid, clients: sockets.size, startedAt }),
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
    socket.on("close", () => {
      sockets.delete(socket);
      armIdle();
    });
    acceptConnection(socket, host);
  });
  if (!(await bind(listener, paths))) {
    log("another daemon answers on the socket: exiting");
    await observer.close();
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
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  log(`panescope ${version} daemon pid ${process.pid}: protocol ${PROTOCOL}, tmux server -S ${paths.tmuxSocket}, socket ${paths.socket}, idle exit after ${options.idleMs} ms`);
  process.stdout.write(`ready ${process.pid}\n`);
  armIdle();
  await new Promise<void>((resolve) => listener.once("close", resolve));
  await stop("closed");
  return 0;
}
