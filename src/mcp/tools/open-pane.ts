// open_pane: start a command in a new window (or split) of a session panescope owns or is told to
// use; the session is created detached if missing. Remembers the panes it opened for close_pane.
import { stat } from "node:fs/promises";
import { z } from "zod";
import { isPanescopeError, messageOf, PanescopeError } from "../../errors.js";
import { TmuxFormat } from "../../tmux/format.js";
import { openedPane } from "../../watch/opened-pane.js";
import { couldNotStart, paneCommand } from "../pane-command.js";
import { ANNOTATIONS, TITLES, type ToolRegistrar } from "../context.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";
import { requireSendable } from "../strings.js";

export const DEFAULT_SESSION = "panescope";

const DESCRIPTION = `Start a command (by tmux's default shell; omit: a shell) in a new pane. Answers paneId and a cursor from its first byte. A new window of session "${DEFAULT_SESSION}" (created detached) or of \`session\`, or a split. Once it ends, the pane keeps its screen and exit status until close_pane (exitStatus: it ended at once). One that cannot start is an error. cols/rows: default 80x24 in a new session.`;

const size = (what: string) => z.number().int(`${what} must be a whole number`).min(2, `${what} is at least 2`).max(1000, `${what} is at most 1000`);

const SHELL = new TmuxFormat({ program: "default-shell" });
/** How long open_pane watches for a command that ends at once (most that cannot start end in ms). */
const START_CHECK_MS = 400;

async function requireDirectory(path: string): Promise<void> {
  const found = await stat(path).catch((error: unknown) => messageOf(error));
  if (typeof found === "string" || !found.isDirectory()) {
    throw new PanescopeError("bad-input", `cwd ${JSON.stringify(path)} is not a directory${typeof found === "string" ? ` (${found})` : ""}: pass an existing absolute directory`);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** The exit status if the pane's command ends within START_CHECK_MS (its wrapper signals `ended`, its process holds the status). */
async function endedAtOnce(ctx: Parameters<ToolRegistrar>[1], pid: number, ended: string): Promise<number | undefined> {
  const done = await ctx.server.run(["wait-for", ended], { timeoutMs: START_CHECK_MS }).then(
    () => true,
    () => false,
  );
  if (!done) return undefined;
  return openedPane(pid)?.ended;
}

/**
 * The wrapper (pane-command.ts) finds its tmux server through TMUX and names its pane by TMUX_PANE,
 * both set by tmux for the pane: an `env` that replaces them makes it fail at once.
 */
const TMUX_OWNED_ENV = ["TMUX", "TMUX_PANE"];

function refuseTmuxEnv(env: Record<string, string> | undefined): void {
  const named = TMUX_OWNED_ENV.filter((name) => env !== undefined && Object.hasOwn(env, name));
  if (named.length > 0) {
    throw new PanescopeError("bad-input", `env may not set ${named.join(" or ")}: tmux sets ${named.length > 1 ? "them" : "it"} for the pane (which server and pane it is). Leave ${named.length > 1 ? "them" : "it"} out`);
  }
}

/** A pane that is already gone (its wrapper could not run: a PATH without sh or tmux, …) was not "opened". */
async function requireStillThere(ctx: Parameters<ToolRegistrar>[1], paneId: string): Promise<void> {
  const found = await ctx.server.display(paneId, new TmuxFormat({ paneId: "pane_id" })).catch(() => undefined);
  if (found?.paneId === paneId) return;
  ctx.opened.delete(paneId);
  throw new PanescopeError("command-failed", `the pane ${paneId} was created but was already gone when open_pane answered: its start-up could not run (check env, e.g. PATH must still find sh and tmux)`);
}

export const registerOpenPane: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "open_pane",
    {
      title: TITLES.open_pane,
      description: DESCRIPTION,
      inputSchema: {
        command: z.string().max(8192, "command is at most 8192 characters: put a long script in a file and run that").optional(),
        session: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, "session must be 1-64 letters, digits, _ or -")
          .optional(),
        split: z.enum(["horizontal", "vertical"]).optional().describe("horizontal: new pane to the right; vertical: below."),
        cols: size("cols").optional(),
        rows: size("rows").optional(),
        cwd: z.string().max(4096).regex(/^\//, "cwd must be an absolute path").optional(),
        env: z
          .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "environment variable names are letters, digits and _, not starting with a digit (at most 128): rename it"), z.string().max(8192), 'env is an object of names to values, e.g. {"LANG": "C.UTF-8"}')
          .optional(),
      },
      outputSchema: s.part({
        paneId: z.string(),
        pid: s.int,
        session: z.string(),
        createdSession: z.boolean(),
        exitStatus: s.int,
        cursor: z.string(),
      }),
      annotations: ANNOTATIONS.open_pane,
    },
    async (input, extra) => {
      try {
        if (input.env && Object.keys(input.env).length > 64) throw new PanescopeError("bad-input", "at most 64 environment variables");
        if (input.command !== undefined) requireSendable("command", input.command);
        if (input.cwd !== undefined) requireSendable("cwd", input.cwd);
        for (const [name, value] of Object.entries(input.env ?? {})) requireSendable(`env.${name}`, value);
        refuseTmuxEnv(input.env);
        if (input.cwd !== undefined) await requireDirectory(input.cwd);
        // No cwd: the caller's directory when the server runs elsewhere (the shared daemon), if it
        // is still one; else tmux's default.
        const cwd = input.cwd ?? (ctx.defaultCwd !== undefined && (await isDirectory(ctx.defaultCwd)) ? ctx.defaultCwd : undefined);
        const session = input.session ?? DEFAULT_SESSION;
        const signal = extra.signal;
        const exists = await ctx.server.run(["has-session", "-t", `=${session}`], { signal }).then(
          () => true,
          (error: unknown) => {
            if (isPanescopeError(error, "command-failed") || isPanescopeError(error, "no-server")) return false;
            throw error;
          },
        );
        // The shell tmux would run the command with (its default-shell), asked of tmux when it runs.
        const shell = (await ctx.server.display(undefined, SHELL).catch(() => undefined))?.program || process.env.SHELL || "/bin/sh";
        const launch = paneCommand(input.command, shell, ctx.server.tmux);
        const format = new TmuxFormat({ paneId: "pane_id", pid: "pane_pid" });
        const common = [
          // tmux expands formats in -c (3.2a–3.7c): `#{pane_id}` would name another directory and
          // `#(cmd)` run a command. `##` is a literal `#` there, and only there.
          ...(cwd === undefined ? [] : ["-c", cwd.replaceAll("#", "##")]),
          ...Object.entries(input.env ?? {}).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
          "-P", "-F", format.text,
        ];
        const command = ["--", ...launch.argv];
        let args: string[];
        if (!exists) {
          args = ["new-session", "-d", "-s", session, "-x", String(input.cols ?? 80), "-y", String(input.rows ?? 24), ...common, ...command];
        } else if (input.split !== undefined) {
          const horizontal = input.split === "horizontal";
          const length = horizontal ? input.cols : input.rows;
          args = ["split-window", "-d", "-t", `=${session}:`, horizontal ? "-h" : "-v", ...(length === undefined ? [] : ["-l", String(length)]), ...common, ...command];
        } else {
          args = ["new-window", "-d", "-t", `=${session}:`, ...common, ...command];
        }
        // Cancelled or timed out, the tmux client is killed before tmux can create the pane (server.ts).
        const [created] = await ctx.server.query(args, format, { signal });
        if (created === undefined || !/^%\d+$/.test(created.paneId) || !/^\d+$/.test(created.pid)) {
          throw new PanescopeError("protocol", `tmux did not report the new pane (got ${JSON.stringify(created)})`);
        }
        const { paneId } = created;
        const pid = Number(created.pid);
        if (!exists) await ctx.server.sizeNewSession(paneId, input.cols ?? 80, input.rows ?? 24);
        else if (input.split === undefined && (input.cols !== undefined || input.rows !== undefined)) {
          await ctx.server.run(["resize-window", "-t", paneId, ...(input.cols === undefined ? [] : ["-x", String(input.cols)]), ...(input.rows === undefined ? [] : ["-y", String(input.rows)])]);
        }
        ctx.opened.set(paneId, { paneId, pid });
        if (ctx.opened.size > 10_000) ctx.opened.delete(ctx.opened.keys().next().value ?? "");
        // Watch first, then let the command start: its first byte is seen.
        const observer = await ctx.hub.observer(paneId).catch(() => undefined);
        const start = await observer?.read(undefined, { maxLines: 0 }).catch(() => undefined);
        await ctx.server.run(["wait-for", "-S", launch.gate]);
        const exitStatus = await endedAtOnce(ctx, pid, launch.ended);
        if (exitStatus !== undefined && couldNotStart(exitStatus)) {
          // What it printed, by its own lines: the screen's rows cut a long message where it wrapped.
          const printed = observer && start ? (await observer.read(start.cursor).catch(() => undefined))?.raw : undefined;
          const lines = (printed ?? "").split("\n").map((line) => line.trim()).filter((line) => line !== "");
          await ctx.server.run(["kill-pane", "-t", paneId]).catch(() => undefined);
          ctx.opened.delete(paneId);
          const said = lines.slice(-3).join(" / ");
          // Its own advice: the arguments and panes every other command-failed is pointed to are not what went wrong.
          throw new PanescopeError("command-failed", `the command could not start (exit status ${exitStatus}${said === "" ? "" : `: ${said}`}); the pane was closed`, {
            advice: `Check the command name, its arguments and PATH${said === "" ? "" : "; what it printed is quoted"}`,
          });
        }
        await requireStillThere(ctx, paneId);
        if (exitStatus !== undefined) await ctx.hub.paneEnded(paneId, { status: exitStatus });
        const where = exists ? (input.split ? `split of session ${session}` : `new window of session ${session}`) : `new session ${session}`;
        const ended = exitStatus === undefined ? "" : `; the command already ended with exit status ${exitStatus} (its screen stays readable)`;
        // The cursor from before the first byte: a first read by paneId gives only the screen, and
        // output that scrolled off it before that read would reach the agent nowhere.
        const cursor = start?.cursor;
        return ok(
          { paneId, pid, session, createdSession: !exists, ...(exitStatus === undefined ? {} : { exitStatus }), ...(cursor === undefined ? {} : { cursor }) },
          `opened ${paneId} (pid ${pid}) in a ${where}${ended}${cursor === undefined ? "" : `\ncursor (from before its first byte): ${cursor}`}`,
        );
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
