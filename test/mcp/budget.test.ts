// maxBytes bounds the whole answer: the pane content of the text and of structuredContent each fit
// it as sent (JSON escapes and row frames counted), after a gap too, and what the reader shows
// (view) gets the budget first. Cuts are reported in the truncation fields, never silently.
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { Hub } from "../../src/watch/hub.js";
import { killAllServers, startServer } from "../support/tmux-fixture.js";
import { link, textOf, type Linked } from "../support/mcp-link.js";

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

/** What an answer carries besides pane content: header, cursor, screen, flags. */
const FRAME = 1024;
const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;
const sizes = (result: CallToolResult) => ({ text: Buffer.byteLength(textOf(result)), structured: Buffer.byteLength(JSON.stringify(result.structuredContent)) });

describe("maxBytes", () => {
  it("bounds text and structuredContent after a flood that overflowed the cursor (was 324 KB of structuredContent for 256 KiB)", async () => {
    const test = await startServer({ cols: 60, rows: 10, command: "sh" });
    const hub = new Hub({ server: test.server, key: randomBytes(32), ringBytes: 1024 * 1024 });
    const mcp = await link(test.server, { hub });
    linked.push(mcp);
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const old = structured(await mcp.call("capture_since", { paneId: pane }));
    const done = await mcp.call("send_keys", { paneId: pane, text: "seq 1 400000; echo EN''D", enter: true, wait: { pattern: "^END$", timeoutMs: 30_000 }, maxBytes: 2000 });
    expect(structured(done).outcome).toBe("matched");
    expect(sizes(done).structured).toBeLessThanOrEqual(2000 + FRAME);
    const read = await mcp.call("capture_since", { cursor: old.cursor, view: "both" });
    const data = structured(read);
    expect(data).toMatchObject({ missed: true, reason: "overflow" });
    expect((data.truncated as { rawChars: number }).rawChars).toBeGreaterThan(0);
    const { text, structured: json } = sizes(read);
    console.log(`after seq 1 400000, a read with an old cursor: text ${text} B, structuredContent ${json} B (maxBytes 262144)`);
    expect(json).toBeLessThanOrEqual(256 * 1024 + FRAME);
    expect(text).toBeLessThanOrEqual(256 * 1024 + FRAME);
    expect(json).toBeGreaterThan(200 * 1024); // the budget is used, not wasted
  }, 60_000);

  it("view raw gets the budget first: maxBytes 300 gives ~300 bytes of raw, the rows' cut counted", async () => {
    const test = await startServer({ cols: 60, rows: 10, command: "sh" });
    const mcp = await link(test.server);
    linked.push(mcp);
    const [pane = ""] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
    const start = structured(await mcp.call("capture_since", { paneId: pane }));
    await mcp.call("send_keys", { paneId: pane, text: "seq 1 200; echo EN''D", enter: true, wait: { pattern: "^END$" }, maxBytes: 100 });
    const raw = await mcp.call("capture_since", { cursor: start.cursor, view: "raw", maxBytes: 300 });
    const data = structured(raw);
    const kept = String(data.raw);
    // Counted as sent: "\r\n" is 4 bytes of JSON.
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(302);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeGreaterThan(250);
    expect((data.truncated as { rows: number }).rows).toBeGreaterThan(0);
    expect((data.truncated as { rawChars: number }).rawChars).toBeGreaterThan(0);
    expect(textOf(raw)).toMatch(/raw, first \d+ chars cut:\n/);
    // The same read by rows: rows first, and their text fits too.
    const rows = await mcp.call("capture_since", { cursor: start.cursor, maxBytes: 300 });
    expect(sizes(rows).structured).toBeLessThanOrEqual(300 + FRAME);
    expect((structured(rows).rows as unknown[]).length).toBeGreaterThan(3);
    // wait_for keeps to the budget as well.
    const waited = await mcp.call("wait_for", { cursor: start.cursor, pattern: "^END$", view: "raw", maxBytes: 300 });
    expect(Buffer.byteLength(JSON.stringify((structured(waited).delta as { raw: string }).raw))).toBeGreaterThan(250);
    expect(sizes(waited).structured).toBeLessThanOrEqual(300 + FRAME);
    expect(sizes(waited).text).toBeLessThanOrEqual(300 + FRAME);
    // A timeout's screen rows count too: at most half the budget, the cut said.
    const timeout = await mcp.call("wait_for", { cursor: start.cursor, pattern: "never printed", timeoutMs: 10, maxBytes: 200 });
    expect(structured(timeout)).toMatchObject({ outcome: "timeout" });
    expect(structured(timeout).rowsCut).toBeGreaterThan(0);
    expect(textOf(timeout)).toMatch(/cut \d+ rows of these \(maxBytes\)/);
    expect(sizes(timeout).structured).toBeLessThanOrEqual(200 + FRAME);
  });
});
