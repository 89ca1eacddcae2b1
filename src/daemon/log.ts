// The daemon's log, its stderr: appended to by each daemon of one tmux server in turn (shell/start.ts
// opens it for the daemon it starts). A daemon's lines begin with its start line, naming the tmux
// server, and end, when it stops cleanly, with its stopped line. One that stops because its tmux
// server is gone removes the log if every daemon in it stopped cleanly: a log of throwaway servers
// (tests, CI) would otherwise stay for good. A crash, a kill or a failed start is kept to be read.
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import type { DaemonPaths } from "../shell/paths.js";
import { PROTOCOL } from "../shell/protocol.js";
import { version } from "../version.js";

export function startLine(pid: number, tmuxSocket: string): string {
  return `panescope ${version} daemon pid ${pid} starting: protocol ${PROTOCOL}, tmux server -S ${tmuxSocket}`;
}

export function stoppedLine(pid: number, why: string): string {
  return `daemon pid ${pid} stopped: ${why}`;
}

const STARTED = / daemon pid (\d+) starting: /;
const STOPPED = / daemon pid (\d+) stopped: /;

/**
 * The daemons of a log that did not stop cleanly (crashed, killed, exited before ready), by pid:
 * those whose start line has no stopped line after it. A pid started twice without a stop between
 * is one lost run (pids are reused).
 */
export function unfinished(text: string): number[] {
  const running = new Set<number>();
  const lost: number[] = [];
  for (const line of text.split("\n")) {
    const started = STARTED.exec(line);
    const stopped = started ? null : STOPPED.exec(line);
    if (started) {
      const pid = Number(started[1]);
      if (running.has(pid)) lost.push(pid);
      running.add(pid);
    } else if (stopped) running.delete(Number(stopped[1]));
  }
  return [...lost, ...running];
}

/**
 * Removes the log of a daemon that stopped because its tmux server is gone, unless a daemon in it
 * did not stop cleanly; undefined once removed, else why it is kept. Holds the start lock meanwhile,
 * so no command starts a daemon onto it, and keeps it if a daemon may still write to it: a command
 * holds the lock, another daemon's socket is bound, or this daemon's stderr is not that file.
 */
export function removeLog(paths: DaemonPaths, pid: number): string | undefined {
  let lock: number;
  try {
    lock = openSync(paths.lock, "wx", 0o600);
  } catch {
    return "a command is starting a daemon";
  }
  try {
    writeSync(lock, String(pid)); // a starter that finds the lock waits while this pid lives
    closeSync(lock);
    if (lstatSync(paths.socket, { throwIfNoEntry: false }) !== undefined) return "another daemon's socket is there";
    const ours = fstatSync(2);
    const log = statSync(paths.log, { throwIfNoEntry: false });
    if (log === undefined || log.ino !== ours.ino || log.dev !== ours.dev) return `this daemon's stderr is not ${paths.log}`;
    const lost = unfinished(readFileSync(paths.log, "utf8"));
    if (lost.length > 0) return `daemon pid ${lost.join(", ")} in it did not stop cleanly (a crash, a kill or a failed start)`;
    unlinkSync(paths.log);
    return undefined;
  } finally {
    unlinkSync(paths.lock);
  }
}
