// A pane panescope opened (mcp/pane-command.ts), known by its own process: the pane's process
// (#{pane_pid}) is panescope's wrapper, and once the program ended, the wrapper holds the pane with
// the exit status in its own argv. Nothing a program can write says this: a pane user option
// inherits from window, session and global scope, survives respawn-pane and is writable from any
// pane (`set -g @panescope_status 0` closed every pane; a program could close its own with `set -p`).
// Another pane cannot change a process's argv; a respawn replaces the process and with it the
// marker. A program can start a pane of its own that looks like ours: that is its own pane, so a
// look-alike can close (close_pane) or read as ended only what its maker already controls.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { STATUS_OPTION } from "../tmux/server.js";

/** argv[3] of the running wrapper: `sh -c WRAPPER panescope-open GATE ENDED TMUX SHELL COMMAND`. */
export const OPEN_MARK = "panescope-open";
/** argv[3] of the held wrapper: `sh -c HOLD panescope-held TMUX CHANNEL STATUS SHELL COMMAND ENDED`. */
export const HELD_MARK = "panescope-held";
/**
 * What the held wrapper runs, in this order: only once its argv holds the status does it set the
 * hint (a watch then looks, and finds the end) and signal ENDED (open_pane's check of a command
 * that ends at once); then it waits, not `exec`'d, so the argv stays the pane's process. Its tmux
 * clients run away from the tty: one polling its socket with the tty open reads as ready (ready.ts;
 * a look while the hint was being set once found the ended pane ready). The shell itself keeps the
 * tty open: when the last fd on a pty's far side closes, tmux reads the pane as exited. The hint
 * names the pane's channel too: a value set beforehand at a wider scope cannot equal it and so
 * cannot hide the change from a subscription.
 */
export const HOLD_SCRIPT = `"$1" set-option -p -t "$TMUX_PANE" ${STATUS_OPTION} "$3:$2" </dev/null >/dev/null 2>&1; "$1" wait-for -S "$6" </dev/null >/dev/null 2>&1; "$1" wait-for "$2" </dev/null >/dev/null 2>&1; exit`;
const GATE = /^panescope-open-[0-9a-f]{12}$/;
const HELD_CHANNEL = /^panescope-open-[0-9a-f]{12}-held$/;

export interface OpenedPane {
  /** The program the wrapper runs (the command's first word, or the shell); undefined if unknown. */
  program: string | undefined;
  /** Its exit status, once it ended and the wrapper holds the pane. */
  ended?: number;
}

/** Each pid's argv, or none where it cannot be read (a seam: tests give made-up processes). */
export type ProcessArgs = (pids: readonly number[]) => Map<number, string[]>;

/** What the process `pid` (a pane's #{pane_pid}) says of it: undefined when it is not our wrapper. */
export function openedPane(pid: number, args: ProcessArgs = processArgs): OpenedPane | undefined {
  return openedPanes([pid], args).get(pid);
}

/** openedPane for several panes with one look. */
export function openedPanes(pids: readonly number[], args: ProcessArgs = processArgs): Map<number, OpenedPane> {
  const found = new Map<number, OpenedPane>();
  for (const [pid, argv] of args(pids.filter((pid) => Number.isSafeInteger(pid) && pid > 0))) {
    const pane = fromArgv(argv);
    if (pane) found.set(pid, pane);
  }
  return found;
}

function fromArgv(argv: string[]): OpenedPane | undefined {
  const [sh, c, , mark, first, second, third, shell = "", command = ""] = argv;
  if (sh !== "sh" || c !== "-c") return undefined;
  const program = programOf(command, shell);
  if (mark === OPEN_MARK && GATE.test(first ?? "")) return { program };
  if (mark === HELD_MARK && HELD_CHANNEL.test(second ?? "") && /^\d{1,3}$/.test(third ?? "")) return { program, ended: Number(third) };
  return undefined;
}

function programOf(command: string, paneShell: string): string | undefined {
  const word = command.trim().split(/\s+/)[0] ?? "";
  const program = word === "" ? paneShell : word;
  return program === "" ? undefined : basename(program);
}

/**
 * The real look: /proc/PID/cmdline. Without /proc (macOS, BSD) nothing is known: only src/tmux/
 * starts processes (no `ps` here), so there a pane's end is what tmux reports (docs/faults.md).
 */
export const processArgs: ProcessArgs = (pids) => {
  const found = new Map<number, string[]>();
  if (process.platform !== "linux") return found;
  for (const pid of pids) {
    try {
      found.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1));
    } catch {
      // Gone, or not readable: not evidence of anything.
    }
  }
  return found;
};
