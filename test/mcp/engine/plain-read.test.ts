// Which requests the front answers itself: a plain capture_since with a cursor and no wait, valid
// as the tool's schema says; anything else goes to the engine (which answers errors too).
import { describe, expect, it } from "vitest";
import { MAX_BYTES, MAX_LINES } from "../../../src/mcp/limits.js";
import { plainRead } from "../../../src/mcp/engine/plain-read.js";

const call = (args: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "capture_since", arguments: args }, ...extra });

describe("plainRead", () => {
  it("takes a read with a cursor, its limits and view", () => {
    expect(plainRead(call({ cursor: "abc" }))).toEqual({ id: 7, cursor: "abc" });
    expect(plainRead(call({ cursor: "abc", paneId: "%3", maxLines: 0, maxBytes: MAX_BYTES, view: "both", waitMs: 0 }))).toEqual({
      id: 7,
      cursor: "abc",
      paneId: "%3",
      maxLines: 0,
      maxBytes: MAX_BYTES,
      view: "both",
    });
    expect(plainRead(JSON.stringify({ jsonrpc: "2.0", id: "x", method: "tools/call", params: { name: "capture_since", arguments: { cursor: "c" } } }))?.id).toBe("x");
  });

  it.each([
    ["no cursor (a first read starts a watch)", call({ paneId: "%3" })],
    ["a wait", call({ cursor: "abc", waitMs: 10 })],
    ["an empty cursor", call({ cursor: "" })],
    ["a cursor longer than any", call({ cursor: "x".repeat(201) })],
    ["a pane id tmux spells otherwise", call({ cursor: "abc", paneId: "%03" })],
    ["a pane id that is none", call({ cursor: "abc", paneId: "3" })],
    ["maxLines beyond its bound", call({ cursor: "abc", maxLines: MAX_LINES + 1 })],
    ["maxLines not whole", call({ cursor: "abc", maxLines: 1.5 })],
    ["maxBytes 0", call({ cursor: "abc", maxBytes: 0 })],
    ["an unknown view", call({ cursor: "abc", view: "cells" })],
    ["an unknown argument", call({ cursor: "abc", colour: true })],
    ["arguments that are no object", call(["abc"])],
    ["_meta (a progress token)", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "capture_since", arguments: { cursor: "c" }, _meta: { progressToken: 1 } } })],
    ["another member", call({ cursor: "abc" }, { extra: 1 })],
    ["another tool", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "capture_pane", arguments: { cursor: "capture_since" } } })],
    ["a notification", JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "capture_since", arguments: { cursor: "c" } } })],
    ["no JSON", '{"capture_since"'],
  ])("leaves %s to the engine", (_, line) => {
    expect(plainRead(line)).toBeUndefined();
  });
});
