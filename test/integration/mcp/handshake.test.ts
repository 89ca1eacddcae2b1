// The handshake, BUILT (dist/cli.js): the split server's front answers initialize and tools/list
// (mcp/handshake.ts) exactly as the server answers them in one thread, and the engine's answer to
// its copy of initialize never reaches the client. No tmux: neither answer needs it (a socket name
// no server uses).
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "cli.js");

const REQUESTS = [
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "handshake-test", version: "0" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 1, method: "tools/list" },
  { jsonrpc: "2.0", id: 2, method: "ping" },
  { jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "again", version: "0" } } },
];

/** Every line the server wrote for REQUESTS, its stdin closed after them. */
async function answers(flags: string[]): Promise<Array<{ id: unknown }>> {
  const input = REQUESTS.map((request) => `${JSON.stringify(request)}\n`).join("");
  const { stdout } = await execa(process.execPath, [CLI, "--socket", `panescope-none-${randomBytes(4).toString("hex")}`, ...flags], { input, env: { PANESCOPE_ENGINE_THREAD: "" } });
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { id: unknown });
}

describe("the handshake", () => {
  it("is answered by the split server's front as in one thread, and only once", async () => {
    const [one, split] = await Promise.all([answers([]), answers(["--engine-thread"])]);
    const byId = (lines: Array<{ id: unknown }>) => [...lines].sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId(one).map((line) => line.id)).toEqual([0, 1, 2, 3]);
    expect(byId(split)).toEqual(byId(one));
    const tools = (byId(split)[1] as unknown as { result: { tools: Array<{ name: string }> } }).result.tools;
    expect(tools.map((tool) => tool.name)).toContain("capture_since");
  });
});
