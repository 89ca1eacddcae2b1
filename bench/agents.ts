// Figure 7, many agents: 10 MCP clients × 10 panes of concurrent waits (capture_since waitMs and
// wait_for), reads and send_keys on one hub (as test/integration/mcp/stress.test.ts does), while an
// unrelated caller reads an 11th, quiet pane back to back, each call timed from asking for a turn
// of the event loop (in-memory transports need none; a call on a pipe would), so whatever holds the
// loop lands in some call. Its latency during the storm vs the same calls just
// before it. In-process MCP (linked in-memory transports, one server per client), so the
// figure is panescope's own scheduling, not the pipes'.
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "../src/mcp/server.js";
import { Hub } from "../src/watch/hub.js";
import { percentile, type Result } from "./lib/format.js";
import { startServer } from "./lib/tmux.js";

const CLIENTS = 10;
const PANES = 10;

interface Agent {
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

async function agent(hub: Hub): Promise<Agent> {
  const mcp = createServer({ hub, server: hub.server });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: "panescope-bench", version: "0" });
  await client.connect(clientSide);
  return {
    call: async (name, args) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result;
    },
    close: async () => {
      await client.close();
      await mcp.close();
    },
  };
}

interface Delta {
  cursor: string;
  raw: string;
}

/** One agent on one pane: watch, wait for its token two ways, type it, read until it shows. */
async function work(client: Agent, c: number, pane: string): Promise<void> {
  const token = `t${c}p${pane.slice(1)}x${randomBytes(2).toString("hex")}`;
  const first = (await client.call("capture_since", { paneId: pane })).structuredContent as unknown as Delta;
  const matched = client.call("wait_for", { paneId: pane, pattern: token, timeoutMs: 60_000 });
  const waited = client.call("capture_since", { cursor: first.cursor, waitMs: 60_000 });
  await client.call("send_keys", { paneId: pane, text: token, enter: true });
  let delta = (await waited).structuredContent as unknown as Delta;
  for (let reads = 0; !delta.raw.includes(token) && reads < 200; reads++) {
    delta = (await client.call("capture_since", { cursor: delta.cursor, waitMs: 60_000 })).structuredContent as unknown as Delta;
  }
  if (!delta.raw.includes(token)) throw new Error(`agents: ${token} never showed`);
  await matched;
}

export async function agents(quick: boolean): Promise<Result[]> {
  // Wide panes: ten agents typing into one pane at once may interleave on one line; it must not wrap.
  const bench = await startServer({ cols: 250, rows: 40, command: "sleep 3600" });
  const hub = new Hub({ server: bench.server, key: randomBytes(32) });
  const clients: Agent[] = [];
  try {
    const panes: string[] = [];
    for (let i = 0; i < PANES; i++) {
      const [pane = ""] = await bench.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "cat"]);
      panes.push(pane);
    }
    for (let i = 0; i <= CLIENTS; i++) clients.push(await agent(hub));
    const [watchdog, ...storm] = clients as [Agent, ...Agent[]];
    let cursor = ((await watchdog.call("capture_since", { paneId: bench.pane })).structuredContent as unknown as Delta).cursor;
    const unrelated = async (samples: number[], until: () => boolean): Promise<void> => {
      while (!until()) {
        // From asking for a turn of the event loop (as a call arriving on a pipe would) to the answer.
        const t0 = performance.now();
        await new Promise((resolve) => setImmediate(resolve));
        cursor = ((await watchdog.call("capture_since", { cursor })).structuredContent as unknown as Delta).cursor;
        samples.push(performance.now() - t0);
      }
    };
    const rounds = quick ? 1 : 3;
    const calm: number[] = [];
    const busy: number[] = [];
    let storms = 0;
    let stormMs = 0;
    for (let round = 0; round < rounds; round++) {
      const calmUntil = performance.now() + 1500;
      await unrelated(calm, () => performance.now() >= calmUntil);
      let storming = true;
      const watching = unrelated(busy, () => !storming);
      const t0 = performance.now();
      await Promise.all(storm.flatMap((client, c) => panes.map((pane) => work(client, c + round * CLIENTS, pane))));
      stormMs += performance.now() - t0;
      storms++;
      storming = false;
      await watching;
    }
    const note = `in-process MCP, ${CLIENTS} clients × ${PANES} panes, ${storms} storm(s) of ${(stormMs / storms / 1000).toFixed(1)} s, ${busy.length} unrelated reads`;
    return [
      { id: "7a", label: "unrelated read p50 during 10×10 agents", value: percentile(busy, 50), baseline: percentile(calm, 50), baselineLabel: "same reads, no storm", unit: "ms", better: "lower", note },
      { id: "7b", label: "unrelated read p99 during 10×10 agents", value: percentile(busy, 99), baseline: percentile(calm, 99), baselineLabel: "same reads, no storm", unit: "ms", better: "lower", note: `max ${Math.max(...busy).toFixed(1)} ms` },
    ];
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await hub.close();
    await bench.kill();
  }
}
