// close_pane: kill a pane panescope opened, or any pane with force; never panescope's own pane.
import { z } from "zod";
import { PanescopeError } from "../../errors.js";
import { ANNOTATIONS, type ToolRegistrar } from "../context.js";
import { refuseOwnPane, requirePane } from "../panes.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";

const DESCRIPTION = `Kill a tmux pane and the program in it (tmux kill-pane). Without force, only panes opened with open_pane can be closed; force: true closes any pane except the one panescope runs in. Killing a window's last pane closes the window, a session's last window the session. This cannot be undone.`;

export const registerClosePane: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "close_pane",
    {
      title: ANNOTATIONS.close_pane.title,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId.describe("The pane to kill, e.g. %3."),
        force: z.boolean().optional().describe("Allow killing a pane panescope did not open (the user's panes). Default false."),
      },
      outputSchema: {
        paneId: z.string().describe("The pane killed."),
        openedByPanescope: z.boolean().describe("True when the pane was one open_pane had started."),
        ended: z.boolean().describe("True when the pane's program had already ended (its last screen was kept until now)."),
        exitStatus: z.number().int().optional().describe("Its exit status, when it had ended and it is known."),
      },
      annotations: ANNOTATIONS.close_pane,
    },
    async (input) => {
      try {
        await refuseOwnPane(ctx, input.paneId, "kills");
        const facts = await requirePane(ctx.server, input.paneId);
        const opened = ctx.opened.get(input.paneId)?.pid === facts.pid;
        if (!opened && !input.force) {
          throw new PanescopeError("not-allowed", `${input.paneId} was not opened by panescope: pass force: true to kill it anyway (it may be the user's)`);
        }
        await ctx.server.run(["kill-pane", "-t", input.paneId]);
        ctx.opened.delete(input.paneId);
        const ended = facts.dead ? `; its program had already ended${facts.exitStatus === undefined ? "" : ` with exit status ${facts.exitStatus}`}` : "";
        return ok(
          { paneId: input.paneId, openedByPanescope: opened, ended: facts.dead, ...(facts.exitStatus === undefined ? {} : { exitStatus: facts.exitStatus }) },
          `closed ${input.paneId}${ended}`,
        );
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
