// The main thread's reads: answered from a pane's view exactly as the tool answers them (same
// result, the request's id), left to the engine when the view cannot, and all left to it after a
// fault here. Publications come from a real observer through a real MessageChannel.
import { randomBytes } from "node:crypto";
import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Front } from "../../../src/mcp/engine/front.js";
import { PortPublisher, SPACING_MS } from "../../../src/mcp/engine/publisher.js";
import { PaneObserver } from "../../../src/observe/pane/observer.js";
import type { McpOptions } from "../../../src/options.js";

const options: McpOptions = { server: {}, readOnly: false, maxWaitMs: 30_000, shared: false };
const key = randomBytes(32);
const request = (id: number, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "capture_since", arguments: args } });

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const close of cleanup) close();
  cleanup = [];
  vi.restoreAllMocks();
});

/** A published pane, and a front taking its publications (lines it writes kept). */
function setup(): { pane: PaneObserver; front: Front; written: string[]; port: MessageChannel["port1"] } {
  const { port1, port2 } = new MessageChannel();
  const publisher = new PortPublisher(port2);
  const written: string[] = [];
  const front = new Front(port1, options, (line) => void written.push(line));
  cleanup.push(() => front.close(), () => publisher.close());
  const pane = new PaneObserver({ identity: { paneId: "%4", panePid: 1, serverPid: 2, serverStart: 3, instance: randomBytes(8) }, cols: 20, rows: 3, key });
  publisher.add(pane, { readVerdict: () => Infinity, used: () => undefined });
  return { pane, front, written, port: port2 };
}

describe("Front", () => {
  it("answers a read from the pane's view with the tool's result and the request's id", async () => {
    const { pane, front, written } = setup();
    const { cursor } = await pane.read(); // published at once
    pane.ingest(new TextEncoder().encode("hello\r\n"));
    const { cursor: after } = await pane.read(cursor);
    expect(front.answer(request(7, { cursor, view: "both" }))).toBe(true);
    const answer = JSON.parse(written[0] ?? "{}") as { id: number; result: { structuredContent: { raw: string; rows: Array<{ text: string }>; cursor: string; waitEnded: string } } };
    expect(answer.id).toBe(7);
    expect(answer.result.structuredContent).toMatchObject({ raw: "hello\n", rows: [{ line: 0, text: "hello" }], cursor: after, waitEnded: "none" });
    expect(front.answered).toBe(1);
  });

  it("answers nothing for a pane whose wait the engine answered, until it has taken a publication made since", async () => {
    const { pane, front } = setup();
    const { cursor } = await pane.read(); // published at once
    expect(front.answer(request(1, { cursor }))).toBe(true);
    const waiting = pane.waitForChange(cursor, 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    pane.ingest(new TextEncoder().encode("woken\r\n"));
    await waiting; // its caller saw "woken"; the view has not yet
    expect(front.answer(request(2, { cursor }))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, SPACING_MS + 5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(front.answer(request(3, { cursor }))).toBe(true);
  });

  it("leaves to the engine a read no view can answer: an unknown pane, another pane named, a tampered cursor", async () => {
    const { pane, front, written } = setup();
    const { cursor } = await pane.read();
    expect(front.answer(request(9, { cursor }))).toBe(true); // the view is there
    written.length = 0;
    expect(front.answer(request(1, { cursor, paneId: "%5" }))).toBe(false);
    expect(front.answer(request(2, { cursor: `${cursor.slice(0, -1)}${cursor.endsWith("A") ? "B" : "A"}` }))).toBe(false);
    expect(front.answer(request(3, { cursor, waitMs: 100 }))).toBe(false);
    expect(written).toEqual([]);
  });

  it("after a fault of its own leaves every read to the engine, and says so once", async () => {
    const { pane, front, port } = setup();
    const { cursor } = await pane.read();
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    port.postMessage({ publications: [null], verdicts: [], ended: [] }); // what no engine sends
    await new Promise((resolve) => setImmediate(resolve));
    expect(front.tryAnswer(request(1, { cursor }))).toBe(false);
    expect(front.tryAnswer(request(2, { cursor }))).toBe(false);
    expect(said.mock.calls.filter(([text]) => String(text).includes("reads beside the engine thread stopped"))).toHaveLength(1);
  });
});
