// Who is reading, when the caller does not say (--as, PANESCOPE_READER): the tmux pane it runs in
// (TMUX_PANE, kept by agents that run commands without a terminal), else its controlling terminal,
// else its session (setsid), else its parent process. One reader per terminal: two shells in two
// terminals each see every line once; two commands in one terminal share a cursor.
import { fs } from "../builtins.js";
import { tmuxEnv } from "../tmux/env.js";
import type { CallerPane } from "./protocol.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The fields of /proc/self/stat after the command name (which may hold spaces and parentheses). */
function statFields(): string[] | undefined {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** A controlling terminal's name from its device number (pts majors are 136–143, proc(5) tty_nr). */
function ttyName(nr: number): string {
  const major = (nr >> 8) & 0xfff;
  const minor = ((nr >> 12) & 0xfff00) | (nr & 0xff);
  return major >= 136 && major <= 143 ? `/dev/pts/${(major - 136) * 256 + minor}` : `tty ${major}:${minor}`;
}

export function defaultReader(env: Env): string {
  const tmux = tmuxEnv(env);
  if (tmux.paneId !== undefined) return `pane ${tmux.paneId}${tmux.serverPid === undefined ? "" : ` of tmux pid ${tmux.serverPid}`}`;
  // state ppid pgrp session tty_nr …
  const fields = statFields();
  const tty = Number(fields?.[4] ?? 0);
  if (tty > 0) return `terminal ${ttyName(tty)}`;
  const session = Number(fields?.[3] ?? 0);
  if (session > 0) return `session ${session}`;
  return `parent ${process.ppid}`;
}

/** The caller's pane, never typed into or killed on the caller's behalf. */
export function callerPane(env: Env): CallerPane | undefined {
  const { paneId, ...server } = tmuxEnv(env);
  return paneId === undefined ? undefined : { paneId, ...server };
}
