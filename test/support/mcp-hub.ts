// Shared by the fault tests: an in-process MCP server (linked in-memory transports) over a Hub on a
// private tmux server, and small helpers to read capture_since results as data.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Delta } from "../../src/observe/delta.js";
import { Hub, type HubOptions } from "../../src/watch/hub.js";
import type { CreateServerOptions } from "../../src/mcp/server.js";
import type { TmuxServer } from "../../src/tmux/server.js";
import { link, textOf, type Linked } from "./mcp-link.js";

export type Capture = Delta & { waitEnded?: string };

export interface Faults extends Linked {
  /** capture_since; throws with the result text when it is an error result. */
  capture(args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<Capture>;
  /** capture_since reading until `done` holds (each call waits up to 5 s for news). */
  captureUntil(start: Capture, done: (delta: Capture) => boolean, limit?: number): Promise<Capture[]>;
}

const open: Faults[] = [];

export async function connect(server: TmuxServer, hub: Partial<HubOptions> = {}, options: Partial<CreateServerOptions> = {}): Promise<Faults> {
  const linked = await link(server, { hub: new Hub({ server, key: randomBytes(32), warn: () => undefined, ...hub }), ...options });
  const capture = async (args: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}): Promise<Capture> => {
    const result = await linked.call("capture_since", args, callOptions);
    if (result.isError === true) throw new Error(textOf(result));
    return result.structuredContent as unknown as Capture;
  };
  const faults: Faults = {
    ...linked,
    capture,
    captureUntil: async (start, done, limit = 200) => {
      const deltas: Capture[] = [];
      let cursor = start.cursor;
      for (let i = 0; i < limit; i++) {
        const delta = await capture({ cursor, waitMs: 5000 });
        deltas.push(delta);
        cursor = delta.cursor;
        if (done(delta)) return deltas;
      }
      throw new Error(`captureUntil: condition never held; last: ${JSON.stringify(deltas.at(-1)).slice(0, 400)}`);
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
