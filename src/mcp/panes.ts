// Small tmux questions the input and manage tools ask about one pane, and the argv escaping they need.
import { PanescopeError } from "../errors.js";
import { TmuxFormat } from "../tmux/format.js";
import { samePane } from "../tmux/pane-id.js";
import type { TmuxServer } from "../tmux/server.js";
import { openedPane } from "../watch/opened-pane.js";
import type { ToolContext } from "./context.js";
import { isOwnPane } from "./own-pane.js";

export interface PaneFacts {
  paneId: string;
  pid: number;
  /** Its program has ended (a dead pane under remain-on-exit, or a held pane panescope opened). */
  dead: boolean;
  exitStatus?: number;
  /** Its process is panescope's wrapper (opened by open_pane, in this panescope or an earlier one). */
  opened: boolean;
}

/** The pane's process and state, or undefined if the server has no such pane. */
export async function paneFacts(server: TmuxServer, paneId: string, signal?: AbortSignal): Promise<PaneFacts | undefined> {
  // tmux 3.3a: `display -p -t %999` prints an empty line and exits 0 when the pane does not exist.
  const found = await server.display(paneId, new TmuxFormat({ paneId: "pane_id", pid: "pane_pid", dead: "pane_dead", status: "pane_dead_status" }), { signal });
  if (found === undefined || !samePane(found.paneId, paneId) || !/^\d+$/.test(found.pid)) return undefined;
  // Ours, and how it ended, are read from the pane's process, never from an option (opened-pane.ts).
  const opened = openedPane(Number(found.pid));
  const status = opened?.ended ?? (found.dead === "1" && /^\d+$/.test(found.status) ? Number(found.status) : undefined);
  return { paneId, pid: Number(found.pid), dead: found.dead === "1" || opened?.ended !== undefined, ...(status === undefined ? {} : { exitStatus: status }), opened: opened !== undefined };
}

export async function requirePane(server: TmuxServer, paneId: string, signal?: AbortSignal): Promise<PaneFacts> {
  const facts = await paneFacts(server, paneId, signal);
  if (!facts) throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`);
  return facts;
}

/** panescope never types into or kills the pane it runs in (decided by server identity: own-pane.ts). */
export async function refuseOwnPane(ctx: ToolContext, paneId: string, what: string, signal?: AbortSignal): Promise<void> {
  if (await isOwnPane(ctx.ownPane, ctx.server, paneId, undefined, signal)) {
    throw new PanescopeError("not-allowed", `${paneId} is the pane panescope itself runs in: it never ${what} it. Choose another pane (list_panes)`);
  }
}
