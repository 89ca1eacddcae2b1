// Unknown argument names are refused on every tool, with the valid names and a "did you mean" for
// near misses: a misspelt `waitMS` must not silently not wait (strict.ts).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { nearest } from "../../src/nearest.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
});

const refusal = (result: CallToolResult) => ({ isError: result.isError, kind: result._meta?.["panescope/error"], text: textOf(result) });

describe("unknown argument names", () => {
  it("are refused on every tool, naming the valid ones, before anything runs", async () => {
    const mcp = await link();
    linked.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools).toHaveLength(7);
    for (const tool of tools) {
      const result = refusal(await mcp.call(tool.name, { bogus: 1 }));
      const valid = Object.keys(tool.inputSchema.properties ?? {});
      expect(result, tool.name).toMatchObject({ isError: true, kind: "bad-input" });
      expect(result.text, tool.name).toBe(`error (bad-input): ${tool.name} has no argument "bogus": it takes ${valid.length === 0 ? "no arguments" : valid.join(", ")}`);
      expect(tool.inputSchema, tool.name).toMatchObject(valid.length === 0 ? {} : { additionalProperties: false });
    }
  });

  it("a near miss says what was meant: waitMS is waitMs, also inside send_keys' wait and input steps", async () => {
    const mcp = await link();
    linked.push(mcp);
    expect(textOf(await mcp.call("capture_since", { paneId: "%0", waitMS: 5000 }))).toMatch(/^error \(bad-input\): capture_since has no argument "waitMS" \(did you mean "waitMs"\?\): it takes paneId, cursor, waitMs,/);
    expect(textOf(await mcp.call("wait_for", { paneId: "%0", patern: "x" }))).toMatch(/has no argument "patern" \(did you mean "pattern"\?\)/);
    expect(textOf(await mcp.call("send_keys", { paneId: "%0", text: "x", wait: { pattern: "x", timeoutMS: 10 } }))).toMatch(/send_keys's wait has no argument "timeoutMS" \(did you mean "timeoutMs"\?\): it takes pattern, ignoreCase, in, quietMs, closed, ready, timeoutMs/);
    expect(textOf(await mcp.call("send_keys", { paneId: "%0", input: ["Enter", { txt: "x" }] }))).toMatch(/send_keys's input\[1\] has no argument "txt" \(did you mean "text"\?\)/);
  });

  it("guesses only close names", () => {
    expect(nearest("waitMS", ["waitMs", "maxBytes"])).toBe("waitMs");
    expect(nearest("maxbyte", ["maxBytes", "maxLines"])).toBe("maxBytes");
    expect(nearest("timeout", ["timeoutMs", "quietMs"])).toBe("timeoutMs");
    expect(nearest("wait", ["waitMs", "view"])).toBeUndefined();
    expect(nearest("bogus", ["paneId", "cursor"])).toBeUndefined();
    expect(nearest("x", ["a", "b"])).toBeUndefined();
  });
});
