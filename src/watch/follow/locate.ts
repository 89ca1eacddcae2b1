// Follow: where a watched pane is now, asked of tmux through a one-shot command (the watch's own control
// client may be the thing that went away). tmux sends output only for panes of the session a
// control client is attached to, so a pane that moves out of it (break-pane/join-pane/swap-pane/
// move-window to another session, its window unlinked, that session killed, our client detached or
// switched by a user's plain `tmux detach-client`/`switch-client`) must be followed, never left silent.
import { isPanescopeError } from "../../errors.js";
import type { PaneExit } from "../../observe/read/delta.js";
import type { PaneIdentity } from "../../observe/pane/observer.js";
import { parseExit } from "../../tmux/exit.js";
import { TmuxFormat } from "../../tmux/format.js";
import { STATUS_OPTION, type TmuxServer } from "../../tmux/server.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";
import { openedPane } from "../opened-pane.js";

export type Whereabouts =
  /** No tmux server answers: the pane is gone with it. */
  | { kind: "no-server" }
  /** The server does not have the pane any more. */
  | { kind: "gone" }
  /** Another life of the server (restarted): the pane id may be reused by a new pane. */
  | { kind: "server-restarted" }
  /** The same pane id with another process in it. */
  | { kind: "respawned" }
  /** Alive (or dead under remain-on-exit) in `sessionId`, one of the sessions holding its window. */
  | { kind: "here"; sessionId: string; windowId: string; dead: boolean; exit?: PaneExit };

const WHERE = new TmuxFormat({
  paneId: "pane_id",
  panePid: "pane_pid",
  sessionId: "session_id",
  windowId: "window_id",
  dead: "pane_dead",
  status: "pane_dead_status",
  signal: "pane_dead_signal",
  held: STATUS_OPTION,
  serverPid: "pid",
  serverStart: "start_time",
});

export async function locate(server: TmuxServer, paneId: string, identity: PaneIdentity): Promise<Whereabouts> {
  let found;
  try {
    found = await server.display(paneId, WHERE, { timeoutMs: PROBE_TIMEOUT_MS });
  } catch (error) {
    if (isPanescopeError(error, "no-server")) return { kind: "no-server" };
    // `can't find pane`: the pane is gone.
    if (isPanescopeError(error, "command-failed")) return { kind: "gone" };
    throw error;
  }
  // tmux 3.3a prints an empty line for `display -t %99`, and may fall back to another pane.
  if (found === undefined || found.paneId !== paneId) {
    const generation = await server.serverGeneration({ timeoutMs: PROBE_TIMEOUT_MS }).catch(() => undefined);
    if (generation && (generation.pid !== identity.serverPid || generation.startTime !== identity.serverStart)) return { kind: "server-restarted" };
    return { kind: "gone" };
  }
  if (Number(found.serverPid) !== identity.serverPid || Number(found.serverStart) !== identity.serverStart) return { kind: "server-restarted" };
  if (Number(found.panePid) !== identity.panePid) return { kind: "respawned" };
  // STATUS_OPTION is a hint only (any program can set it): the end is read from the pane's process.
  const held = found.held === "" ? undefined : openedPane(identity.panePid)?.ended;
  const ended = held !== undefined;
  const dead = found.dead === "1" || ended;
  const exit: PaneExit | undefined = ended ? { status: held } : parseExit(found.status, found.signal);
  return { kind: "here", sessionId: found.sessionId, windowId: found.windowId, dead, ...(dead && exit ? { exit } : {}) };
}

const PANE = new TmuxFormat({ paneId: "pane_id" });

/** Whether `paneId` is in a window of `sessionId` (a window can be linked into several sessions). */
export async function inSession(server: TmuxServer, sessionId: string, paneId: string): Promise<boolean> {
  try {
    const panes = await server.query(["list-panes", "-s", "-t", sessionId, "-F", PANE.text], PANE, { timeoutMs: PROBE_TIMEOUT_MS });
    return panes.some((pane) => pane.paneId === paneId);
  } catch {
    return false;
  }
}
