// Small tmux questions the input and manage tools ask about one pane, and the argv escaping they need.
import { PanescopeError } from "../errors.js";
import { TmuxFormat } from "../tmux/format.js";
import { samePane } from "../tmux/pane-id.js";
import { STATUS_OPTION, type TmuxServer } from "../tmux/server.js";
import type { ToolContext } from "./context.js";
import { isOwnPane } from "./own-pane.js";

export interface PaneFacts {
  paneId: string;
  pid: number;
  /** Its program has ended (a dead pane under remain-on-exit, or a held pane panescope opened). */
  dead: boolean;
  exitStatus?: number;
}

/** The pane's process and state, or undefined if the server has no such pane. */
export async function paneFacts(server: TmuxServer, paneId: string): Promise<PaneFacts | undefined> {
  // tmux 3.3a: `display -p -t %999` prints an empty line and exits 0 when the pane does not exist.
  const found = await server.display(paneId, new TmuxFormat({ paneId: "pane_id", pid: "pane_pid", dead: "pane_dead", status: "pane_dead_status", held: STATUS_OPTION }));
  if (found === undefined || !samePane(found.paneId, paneId) || !/^\d+$/.test(found.pid)) return undefined;
  // A pane panescope opened is held open after its program ends, its status in STATUS_OPTION.
  const status = found.held || (found.dead === "1" ? found.status : "");
  return { paneId, pid: Number(found.pid), dead: found.dead === "1" || found.held !== "", ...(/^\d+$/.test(status) ? { exitStatus: Number(status) } : {}) };
}

export async function requirePane(server: TmuxServer, paneId: string): Promise<PaneFacts> {
  const facts = await paneFacts(server, paneId);
  if (!facts) throw new PanescopeError("unknown-pane", `no pane ${paneId} on this tmux server: list_panes shows the panes there are`);
  return facts;
}

/** panescope never types into or kills the pane it runs in (decided by server identity: own-pane.ts). */
export async function refuseOwnPane(ctx: ToolContext, paneId: string, what: string): Promise<void> {
  if (await isOwnPane(ctx.ownPane, ctx.server, paneId)) {
    throw new PanescopeError("not-allowed", `${paneId} is the pane panescope itself runs in: it never ${what} it. Choose another pane (list_panes)`);
  }
}
