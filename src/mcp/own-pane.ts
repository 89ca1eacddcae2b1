// The pane panescope itself runs in, recognised by tmux identity rather than by path strings: a
// socket path can be spelled many ways (`//tmp/x`, `/tmp/./x`, a symlink), a server cannot. tmux
// sets TMUX="socket,server-pid,session" and TMUX_PANE="%N" in every pane (environ.c, 3.2a–3.7c);
// a pane id is ours only on the server whose pid (and socket inode, when both can be stat-ed)
// match, asked of the server we actually talk to.
import { stat } from "node:fs/promises";
import { canonicalPaneId, samePane } from "../tmux/pane-id.js";
import type { TmuxServer } from "../tmux/server.js";

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
  const pane = env.TMUX_PANE;
  if (pane === undefined || !/^%\d+$/.test(pane)) return undefined;
  const paneId = canonicalPaneId(pane);
  const tmux = env.TMUX ?? "";
  // The socket path may itself contain commas: pid and session are the last two fields.
  const last = tmux.lastIndexOf(",");
  const middle = last <= 0 ? -1 : tmux.lastIndexOf(",", last - 1);
  if (middle <= 0) return { paneId };
  const pid = tmux.slice(middle + 1, last);
  return { paneId, socket: tmux.slice(0, middle), ...(/^\d+$/.test(pid) ? { serverPid: Number(pid) } : {}) };
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
 * True when `paneId` is the pane panescope runs in, on the server `server` talks to. With
 * TMUX_PANE but no usable TMUX it cannot tell, and answers true (refusing more, not less).
 */
export async function isOwnPane(own: OwnPane | undefined, server: TmuxServer, paneId: string): Promise<boolean> {
  // tmux reads %00 as %0: compared as numbers, never as strings.
  if (own === undefined || !samePane(paneId, own.paneId)) return false;
  if (own.serverPid === undefined && own.socket === undefined) return true;
  const [line = ""] = await server.run(["display-message", "-p", "#{pid} #{socket_path}"]);
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
