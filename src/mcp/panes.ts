// Small tmux questions the input and manage tools ask about one pane, and the argv escaping they need.
import { PanescopeError } from "../errors.js";
import { TmuxFormat } from "../tmux/format.js";
import type { TmuxServer } from "../tmux/server.js";
import type { ToolContext } from "./context.js";
import { isOwnPane } from "./own-pane.js";

export interface PaneFacts {
  paneId: string;
  pid: number;
  dead: boolean;
}

/** The pane's process and state, or undefined if the server has no such pane. */
export async function paneFacts(server: TmuxServer, paneId: string): Promise<PaneFacts | undefined> {
  // tmux 3.3a: `display -p -t %999` prints an empty line and exits 0 when the pane does not exist.
  const found = await server.display(paneId, new TmuxFormat({ paneId: "pane_id", pid: "pane_pid", dead: "pane_dead" }));
  if (found?.paneId !== paneId || !/^\d+$/.test(found.pid)) return undefined;
  return { paneId, pid: Number(found.pid), dead: found.dead === "1" };
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
