// Test helper for the shell commands and their daemon: runs the BUILT dist/cli.js with a private
// XDG_RUNTIME_DIR (the daemon's socket directory) and XDG_STATE_HOME (the cursor key), finds the
// daemons serving a tmux socket from /proc, and kills exactly those, so no test leaves one running.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach } from "vitest";
import { socketFile, startServer, type TestServer } from "./tmux-fixture.js";

export const CLI = resolve(import.meta.dirname, "../../dist/cli.js");

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface ShellPlace {
  runtime: string;
  state: string;
  env: Record<string, string>;
  /** `panescope COMMAND -L <server> ARGS`; resolves with the exit status and output (never rejects on a status). */
  run(args: string[], extraEnv?: Record<string, string>): Promise<Run>;
  /** The same, started: for a call to interrupt or to run beside others. */
  start(args: string[], extraEnv?: Record<string, string>): ResultPromise<{ reject: false }>;
  /** Pids of the daemons serving this tmux server (from /proc: their argv names its socket). */
  daemons(): number[];
  /** Kills every daemon of this server (SIGKILL, by pid) and removes the temporary directories. */
  clean(): Promise<void>;
}

/**
 * After each test of the file that failed, the logs of the daemons it talked to, on stderr: a
 * daemon has no terminal, and its log (beside its socket) goes with the test's directories.
 */
export function daemonLogsOnFailure(place: () => ShellPlace | undefined): void {
  afterEach(({ task }) => {
    const runtime = place()?.runtime;
    if (task.result?.state !== "fail" || runtime === undefined) return;
    const dir = join(runtime, "panescope");
    let logs: string[] = [];
    try {
      logs = readdirSync(dir).filter((file) => file.endsWith(".log"));
    } catch {
      return; // no daemon was started
    }
    for (const log of logs) process.stderr.write(`--- daemon log ${log} (${task.name}):\n${readFileSync(join(dir, log), "utf8")}\n`);
  });
}

function cmdline(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
}

/** /proc/PID/stat says Z: it ended, and waits for its parent to reap it. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true; // no /proc entry: gone
  }
}

/** The parent's pid, from /proc/PID/stat (the field after the state); undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

export function daemonsOf(tmuxSocket: string): number[] {
  const matching = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      const argv = cmdline(pid);
      const at = argv.indexOf("daemon");
      return at > 0 && argv[at - 1] === CLI && argv[at + 1] === "-S" && argv[at + 2] === tmuxSocket;
    })
    .map(Number);
  // A daemon's child between fork and exec (a tmux command starting) still shows the daemon's
  // argv: on a busy machine a count caught one ([13903, 15301], the second a child of the first).
  return matching.filter((pid) => !matching.includes(parentOf(pid) ?? 0));
}

/**
 * Resolves once the process is gone (polls: a pid that is not our child gives no exit event). A
 * zombie counts as gone: a daemon's parent is whatever adopted it, which may reap it only a second
 * later (this machine's pid 1 did), and each test paid that second.
 */
export async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (zombie(pid)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function shellPlace(serverName: string): ShellPlace {
  const runtime = mkdtempSync(join(tmpdir(), "panescope-run-"));
  chmodSync(runtime, 0o700);
  const state = mkdtempSync(join(tmpdir(), "panescope-state-"));
  // The private server by flag and by variable: a command never reaches the user's default server.
  const env = { XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: state, PANESCOPE_SOCKET: serverName, PANESCOPE_SOCKET_PATH: "", PANESCOPE_READER: "", TMUX: "", TMUX_PANE: "" };
  const tmuxSocket = socketFile(serverName);
  // -L right after the command word: after `open --` it would be part of the command.
  const start = (args: string[], extraEnv: Record<string, string> = {}) =>
    execa(process.execPath, [CLI, ...args.slice(0, 1), "-L", serverName, ...args.slice(1)], { env: { ...env, ...extraEnv }, reject: false, timeout: 60_000 });
  return {
    runtime,
    state,
    env,
    start,
    run: async (args, extraEnv) => {
      const result = await start(args, extraEnv);
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
    },
    daemons: () => daemonsOf(tmuxSocket),
    clean: async () => {
      for (const pid of daemonsOf(tmuxSocket)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          continue; // it ended between the look and the kill
        }
        await gone(pid);
      }
      rmSync(runtime, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/**
 * For a file whose every test has its own private server (`sh`, 60×10) and directories: the
 * set-up to call in each test; after each, its daemons killed and its server too, and a failed
 * test's daemon logs shown first.
 */
export function serverPerTest(): () => Promise<{ tmux: TestServer; place: ShellPlace }> {
  let tmux: TestServer | undefined;
  let place: ShellPlace | undefined;
  afterEach(async () => {
    await place?.clean();
    await tmux?.kill();
    place = undefined;
    tmux = undefined;
  });
  // Registered after the clean-up: after-hooks run last first, so the logs are read before they go.
  daemonLogsOnFailure(() => place);
  return async () => {
    tmux = await startServer({ command: "sh", cols: 60, rows: 10 });
    place = shellPlace(tmux.name);
    return { tmux, place };
  };
}

/** The daemon's socket in its directory (the one `.sock` there). */
export function socketIn(dir: string): string {
  const name = readdirSync(dir).find((file) => file.endsWith(".sock"));
  if (name === undefined) throw new Error(`no socket in ${dir}`);
  return join(dir, name);
}
