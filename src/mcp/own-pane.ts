// The pane panescope itself runs in, two ways. From the environment, recognised by tmux identity
// rather than by path strings: a socket path can be spelled many ways (`//tmp/x`, `/tmp/./x`, a
// symlink), a server cannot. tmux sets TMUX="socket,server-pid,session" and TMUX_PANE="%N" in every
// pane (environ.c, 3.2a–3.7c); a pane id is ours only on the server whose pid (and socket inode,
// when both can be stat-ed) match, asked of the server we actually talk to. And from what the
// process is (own-process.ts), for clients that start panescope without that environment.
import { stat } from "node:fs/promises";
import { isPanescopeError } from "../errors.js";
import { tmuxEnv } from "../tmux/env.js";
import { samePane } from "../tmux/pane-id.js";
import { TmuxFormat } from "../tmux/format.js";
import type { RunOptions, TmuxServer } from "../tmux/server.js";
import { PROBE_TIMEOUT_MS } from "../tmux/timeouts.js";
import { holds, readSelf, type ProcessSelf } from "./own-process.js";

export interface OwnPane {
  /** TMUX_PANE: the pane id on the server panescope runs under. */
  paneId: string;
  /** From TMUX: that server's pid, when it parses. */
  serverPid?: number;
  /** From TMUX: that server's socket path, as tmux wrote it. */
  socket?: string;
}

/** The pane panescope runs in, from its environment; undefined outside tmux. */
export function ownPaneFromEnv(env: Record<string, string | undefined>): OwnPane | undefined {
  const { paneId, ...server } = tmuxEnv(env);
  return paneId === undefined ? undefined : { paneId, ...server };
}

/** The identity of a socket file (device + inode), or undefined if it cannot be stat-ed. */
async function socketId(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path); // follows symlinks and normalises the spelling
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * True when `paneId` is the pane panescope runs in, on the server `server` talks to: its
 * environment says so, or the pane's process is an ancestor of ours, or its terminal is ours.
 * With TMUX_PANE but no usable TMUX it cannot tell, and answers true (refusing more, not less).
 */
export async function isOwnPane(own: OwnPane | undefined, server: TmuxServer, paneId: string, self: ProcessSelf = readSelf(), signal?: AbortSignal): Promise<boolean> {
  // The caller's cancel reaches these questions too: a stopped server must not hold a cancelled call.
  const options = { signal };
  if (await ownByEnv(own, server, paneId, options)) return true;
  return holdsUs(server, paneId, self, options);
}

/** Every pane of the server that holds this process, by ancestry or terminal (list_panes' `self`). */
export async function panesHoldingUs(server: TmuxServer, self: ProcessSelf = readSelf()): Promise<Set<string>> {
  const found = new Set<string>();
  if (!(await mayHoldUs(server, self))) return found;
  const panes = await server.query(["list-panes", "-a", "-F", HOLDER.text], HOLDER, { timeoutMs: PROBE_TIMEOUT_MS }).catch(() => []);
  for (const pane of panes) if (holds(self, Number(pane.panePid), pane.paneTty)) found.add(pane.paneId);
  return found;
}

const HOLDER = new TmuxFormat({ paneId: "pane_id", panePid: "pane_pid", paneTty: "pane_tty" });

/** The server's pid, asked once per server object: a server born after us cannot be our ancestor. */
const serverPids = new WeakMap<TmuxServer, number>();

/**
 * Whether any pane of the server could hold us: we have a terminal (a pane's, maybe), or the server
 * is one of our ancestors (a pane's process is the server's child). Spares a tmux command per call
 * to the usual MCP server, started by a client outside tmux over pipes.
 */
async function mayHoldUs(server: TmuxServer, self: ProcessSelf, options: RunOptions = {}): Promise<boolean> {
  if (self.ttys.size > 0) return true;
  let pid = serverPids.get(server);
  if (pid === undefined) {
    const [line = ""] = (await server.run(["display-message", "-p", "#{pid}"], options).catch(unlessStopped)) ?? [];
    if (!/^\d+$/.test(line)) return false; // no server running: no pane to protect
    pid = Number(line);
    serverPids.set(server, pid);
  }
  return self.lineage.includes(pid);
}

/**
 * A failed question answers "nothing to protect" (no server, no such pane), but a server that did not
 * answer in time fails the call, as a cancel does: the tool's own command would wait out another
 * limit (a `send` to a stopped server took 22 s, its error only after the second timeout).
 */
function unlessStopped(error: unknown): undefined {
  if (isPanescopeError(error, "timeout") || isPanescopeError(error, "aborted")) throw error;
  return undefined;
}

/** Whether the pane `paneId` holds this process (ancestry or terminal), asked of the server. */
async function holdsUs(server: TmuxServer, paneId: string, self: ProcessSelf, options: RunOptions): Promise<boolean> {
  if (!(await mayHoldUs(server, self, options))) return false;
  // A pane that does not exist holds nothing: the tool's own command then says it is unknown.
  const found = await server.display(paneId, HOLDER, { timeoutMs: PROBE_TIMEOUT_MS, ...options }).catch(unlessStopped);
  if (found === undefined || !samePane(found.paneId, paneId)) return false;
  return holds(self, Number(found.panePid), found.paneTty);
}

async function ownByEnv(own: OwnPane | undefined, server: TmuxServer, paneId: string, options: RunOptions): Promise<boolean> {
  // tmux reads %00 as %0: compared as numbers, never as strings.
  if (own === undefined || !samePane(paneId, own.paneId)) return false;
  if (own.serverPid === undefined && own.socket === undefined) return true;
  const [line = ""] = await server.run(["display-message", "-p", "#{pid} #{socket_path}"], options);
  const space = line.indexOf(" ");
  const pid = Number(line.slice(0, space));
  const socket = line.slice(space + 1);
  if (space <= 0 || !Number.isInteger(pid)) return true; // an answer we cannot read: refuse more
  if (own.serverPid !== undefined && pid !== own.serverPid) return false;
  if (own.socket === undefined) return true;
  const [ours, theirs] = await Promise.all([socketId(socket), socketId(own.socket)]);
  // Both known: they must be the same file. One unknown (another mount namespace, removed): pid decides.
  if (ours !== undefined && theirs !== undefined) return ours === theirs;
  return own.serverPid !== undefined;
}
