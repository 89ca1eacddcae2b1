// What every tool handler shares: the hub, the tmux server, the policy (read-only, wait cap, our own
// pane), the panes panescope opened, and the tool annotations — declared once, here.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { TmuxServer } from "../tmux/server.js";
import type { Hub } from "../watch/hub.js";
import type { OwnPane } from "./own-pane.js";
import type { RegexRunner } from "./regex-runner.js";
import type { Knobs } from "./render.js";
import type { FailContext } from "./results.js";
import type { TypedKeys } from "./typed-keys.js";

export type ToolName = "capture_since" | "capture_pane" | "list_panes" | "wait_for" | "send_keys" | "open_pane" | "close_pane";

// Hints are given where they differ from MCP's defaults (readOnly false, destructive true,
// idempotent false, openWorld true; the middle two mean something only when readOnly is false),
// and readOnlyHint always.
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** Each tool's title: given once, as the tool's `title` (not again in its annotations). */
export const TITLES: Record<ToolName, string> = {
  capture_since: "Read what a pane printed since a cursor",
  capture_pane: "Read a pane's screen now",
  list_panes: "List tmux panes",
  wait_for: "Wait for text, quiet or exit in a pane",
  send_keys: "Type text or press keys in a pane",
  open_pane: "Start a command in a new tmux pane",
  close_pane: "Kill a tmux pane",
};

// Honest hints: keystrokes and commands can do anything the pane's program or shell can (delete
// files, reach the network), so send_keys and open_pane are neither safe nor closed-world.
export const ANNOTATIONS: Record<ToolName, ToolAnnotations> = {
  capture_since: READ,
  capture_pane: READ,
  list_panes: READ,
  wait_for: READ,
  send_keys: { readOnlyHint: false },
  open_pane: { readOnlyHint: false, destructiveHint: false },
  close_pane: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
};

/** A pane panescope started: the id plus its process, so a recycled id is not mistaken for it. */
export interface OpenedPane {
  paneId: string;
  pid: number;
}

export interface ToolContext {
  hub: Hub;
  server: TmuxServer;
  readOnly: boolean;
  /** Upper bound for any wait (capture_since waitMs, wait_for timeoutMs). */
  maxWaitMs: number;
  /** The pane panescope itself runs in (TMUX_PANE, TMUX): never typed into or killed on its server. */
  ownPane: OwnPane | undefined;
  /** Where open_pane starts a pane given no cwd (CreateServerOptions.defaultCwd). */
  defaultCwd: string | undefined;
  /** Runs wait_for's patterns off the event loop, with a time budget per match. */
  regex: RegexRunner;
  /** Panes opened through open_pane, by id. */
  opened: Map<string, OpenedPane>;
  /** A cursor from just before the last keys this caller sent, by pane (wait.ts: not the old prompt). */
  typed: TypedKeys;
  /** For error advice: how this server is named on a tmux command line. */
  failContext: FailContext;
  /** How answers name the knobs their notes point at (CreateServerOptions.knobs). */
  knobs: Knobs;
  /** Aborted when the server is told to stop (SIGTERM, SIGINT): every wait answers at once. */
  stopping: AbortSignal;
}

/**
 * A call's signal: the client's cancellation, or the server stopping. A wait cut short by the
 * server's stop is still answered (the client's own cancellation is not: the SDK drops that answer),
 * so a supervisor's SIGTERM ends the server in a moment, not after the longest wait.
 */
export function callSignal(ctx: ToolContext, extra: { signal: AbortSignal }): AbortSignal {
  return AbortSignal.any([extra.signal, ctx.stopping]);
}

/** Registers one tool on what hosts it (the server, through the compact tool list of tool-list.ts). */
export type ToolRegistrar = (mcp: Pick<McpServer, "registerTool">, context: ToolContext) => void;
