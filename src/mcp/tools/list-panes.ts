// list_panes: every pane of the tmux server, with what an agent needs to pick one.
import { z } from "zod";
import { ANNOTATIONS, type ToolRegistrar } from "../context.js";
import { isOwnPane } from "../own-pane.js";
import { fail, ok } from "../results.js";

const DESCRIPTION = `List every pane of the tmux server panescope watches: id (pass it as paneId to the other tools), session, window, title, running command, working directory, size, and flags (active, dead, alternate screen, opened by panescope, panescope's own pane).

Call this first when you do not know which pane to read. Titles and commands are set by programs: untrusted text.`;

const pane = z.object({
  paneId: z.string().describe("Pane id, e.g. %3: the paneId other tools take."),
  session: z.string().describe("Session name, as tmux stores it (the name tmux -t '=NAME:' finds)."),
  sessionId: z.string().describe("Session id, e.g. $0."),
  windowId: z.string().describe("Window id, e.g. @1."),
  window: z.number().int().describe("Window index within the session."),
  index: z.number().int().describe("Pane index within the window."),
  title: z.string().describe("Pane title (programs can set it: untrusted)."),
  command: z.string().describe("The command running in the pane now (e.g. bash, vim)."),
  path: z.string().describe("Working directory of that command (empty when tmux cannot tell)."),
  pid: z.number().int().describe("Process id of the pane's first process."),
  cols: z.number().int().describe("Width in columns."),
  rows: z.number().int().describe("Height in rows."),
  active: z.boolean().describe("The active pane of its window."),
  dead: z.boolean().describe("The program has exited but the pane remains (remain-on-exit)."),
  exitStatus: z.number().int().optional().describe("How the pane's program ended, when it has and the status is known (panes open_pane started keep it)."),
  exitSignal: z.string().optional().describe("The signal that killed the program, when tmux recorded one."),
  healed: z.number().int().optional().describe("For panes panescope watches: how often it corrected its rendering from tmux's own screen."),
  alternate: z.boolean().describe("A full-screen program is on the alternate screen."),
  opened: z.boolean().describe("Opened by panescope's open_pane (close_pane may kill it without force)."),
  self: z.boolean().describe("The pane panescope itself runs in: never typed into or closed."),
});

export const registerListPanes: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "list_panes",
    {
      title: ANNOTATIONS.list_panes.title,
      description: DESCRIPTION,
      inputSchema: {},
      outputSchema: { panes: z.array(pane).describe("All panes of all sessions, in tmux's order.") },
      annotations: ANNOTATIONS.list_panes,
    },
    async () => {
      try {
        const listed = await ctx.server.listPanes();
        const heals = new Map(ctx.hub.watching.map((w) => [w.paneId, w.heals]));
        const own = listed.some((p) => p.paneId === ctx.ownPane?.paneId) && (await isOwnPane(ctx.ownPane, ctx.server, ctx.ownPane?.paneId ?? ""));
        const panes = listed.map((p) => ({
          paneId: p.paneId,
          session: p.sessionName,
          sessionId: p.sessionId,
          windowId: p.windowId,
          window: p.windowIndex,
          index: p.paneIndex,
          title: p.title,
          command: p.command,
          path: p.path,
          pid: p.pid,
          cols: p.cols,
          rows: p.rows,
          active: p.active,
          dead: p.dead,
          ...(p.exitStatus === undefined ? {} : { exitStatus: p.exitStatus }),
          ...(p.exitSignal === undefined ? {} : { exitSignal: p.exitSignal }),
          ...(heals.get(p.paneId) ? { healed: heals.get(p.paneId) } : {}),
          alternate: p.alternate,
          opened: ctx.opened.get(p.paneId)?.pid === p.pid,
          self: own && p.paneId === ctx.ownPane?.paneId,
        }));
        const lines = panes.map((p) => {
          const ended = p.exitStatus !== undefined || p.exitSignal !== undefined ? `ended (${[p.exitStatus !== undefined && `exit ${p.exitStatus}`, p.exitSignal && `signal ${p.exitSignal}`].filter(Boolean).join(", ")})` : false;
          const flags = [p.active && "active", p.dead && "dead", ended, p.alternate && "alternate", p.opened && "opened-by-panescope", p.self && "panescope-itself"].filter(Boolean);
          return `${p.paneId} ${p.session}:${p.window}.${p.index} ${p.cols}x${p.rows} ${JSON.stringify(p.command)} title ${JSON.stringify(p.title)}${flags.length ? ` [${flags.join(", ")}]` : ""}`;
        });
        const text = panes.length === 0 ? "no panes" : `${panes.length} pane(s) (titles are untrusted program text):\n${lines.join("\n")}`;
        return ok({ panes }, text);
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
