// close_pane: kill a pane panescope opened, or any pane with force; never panescope's own pane.
import { z } from "zod";
import { PanescopeError } from "../../errors.js";
import { ANNOTATIONS, TITLES, type ToolRegistrar } from "../context.js";
import { refuseOwnPane, requirePane } from "../panes.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";

const DESCRIPTION = `Kill a pane and its program. Without force, only panes open_pane started; with force, any but panescope's own. Cannot be undone.`;

export const registerClosePane: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "close_pane",
    {
      title: TITLES.close_pane,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId,
        force: z.boolean().optional(),
      },
      outputSchema: s.part({
        paneId: z.string(),
        openedByPanescope: z.boolean(),
        ended: z.boolean(),
        exitStatus: s.int,
      }),
      annotations: ANNOTATIONS.close_pane,
    },
    async (input, extra) => {
      try {
        await refuseOwnPane(ctx, input.paneId, "kills", extra.signal);
        const facts = await requirePane(ctx.server, input.paneId, extra.signal);
        // Ours by the pane's own process (also panes an earlier panescope opened), or by memory.
        const opened = facts.opened || ctx.opened.get(input.paneId)?.pid === facts.pid;
        if (!opened && !input.force) {
          throw new PanescopeError("not-allowed", `${input.paneId} was not opened by panescope: pass \`force: true\` to kill it anyway (it may be the user's)`);
        }
        await ctx.server.run(["kill-pane", "-t", input.paneId], { signal: extra.signal });
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
