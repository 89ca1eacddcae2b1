// Shared by the fault tests: an in-process MCP server (linked in-memory transports) over a Hub on a
// private tmux server, and small helpers to read capture_since results as data.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Delta } from "../../src/observe/read/delta.js";
import { Hub, type HubOptions } from "../../src/watch/hub.js";
import type { CreateServerOptions } from "../../src/mcp/server.js";
import type { TmuxServer } from "../../src/tmux/server.js";
import { link, textOf, type Linked } from "./mcp-link.js";

export type Capture = Delta & { waitEnded?: string };

export interface Faults extends Linked {
  /** capture_since; throws with the result text when it is an error result. */
  capture(args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<Capture>;
  /**
   * capture_since reading until `done` holds (each call waits up to 5 s for news), for at most
   * `limit` calls or `withinMs`: then it throws with the last answer and the hub's warnings.
   */
  captureUntil(start: Capture, done: (delta: Capture) => boolean, limit?: number, withinMs?: number): Promise<Capture[]>;
  /** The hub's warnings so far (the last 50), for a failure's message. */
  readonly warnings: string[];
}

const open: Faults[] = [];

export async function connect(server: TmuxServer, hub: Partial<HubOptions> = {}, options: Partial<CreateServerOptions> = {}): Promise<Faults> {
  const warnings: string[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    if (warnings.length > 50) warnings.shift();
  };
  const linked = await link(server, { hub: new Hub({ server, key: randomBytes(32), warn, ...hub }), ...options });
  const capture = async (args: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}): Promise<Capture> => {
    const result = await linked.call("capture_since", args, callOptions);
    if (result.isError === true) throw new Error(textOf(result));
    return result.structuredContent as unknown as Capture;
  };
  const faults: Faults = {
    ...linked,
    capture,
    warnings,
    captureUntil: async (start, done, limit = 200, withinMs = 25_000) => {
      const deltas: Capture[] = [];
      let cursor = start.cursor;
      const deadline = Date.now() + withinMs;
      for (let i = 0; i < limit && Date.now() < deadline; i++) {
        const delta = await capture({ cursor, waitMs: Math.max(0, Math.min(5000, deadline - Date.now())) });
        deltas.push(delta);
        cursor = delta.cursor;
        if (done(delta)) return deltas;
      }
      const last = deltas.at(-1);
      const shown = last && { rows: last.rows.slice(-6), screen: last.screen, raw: last.raw.slice(-300), missed: last.missed, reason: last.reason, closed: last.closed, streaming: last.streaming };
      throw new Error(`captureUntil: condition never held in ${deltas.length} reads; last: ${JSON.stringify(shown)}; the hub warned: ${JSON.stringify(warnings.slice(-10))}`);
    },
  };
  open.push(faults);
  return faults;
}

/** Close every MCP link and hub opened by connect (for afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((f) => f.close()));
}

export function isErrorText(result: CallToolResult): string | undefined {
  return result.isError === true ? textOf(result) : undefined;
}

export function texts(delta: Delta): string[] {
  return delta.rows.map((r) => r.text);
}

/** The id of the pane tmux shows for a target (a session name, a window). */
export async function paneIn(test: { run(args: string[]): Promise<string[]> }, target: string): Promise<string> {
  const [pane] = await test.run(["display-message", "-p", "-t", target, "#{pane_id}"]);
  return pane ?? "";
}
