// Named readers' cursors: kept per reader and pane, written through to a file a new daemon reads,
// and bounded (the least recently used forgotten first).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_ENTRIES, ReaderCursors } from "../../src/daemon/readers.js";

const scratch = mkdtempSync(join(tmpdir(), "panescope-readers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("readers' cursors", () => {
  it("are kept per reader and pane, and survive into a new store on the same file", () => {
    const file = join(scratch, "a.json");
    const store = new ReaderCursors(file);
    store.set("me", "%1", "c1");
    store.set("you", "%1", "c2");
    store.set("me", "%2", "c3");
    const again = new ReaderCursors(file);
    expect([again.get("me", "%1"), again.get("you", "%1"), again.get("me", "%2"), again.get("me", "%3")]).toEqual(["c1", "c2", "c3", undefined]);
    again.forget("me", "%1");
    expect(new ReaderCursors(file).get("me", "%1")).toBeUndefined();
  });

  it("forget the least recently used beyond the bound", () => {
    const store = new ReaderCursors(undefined);
    for (let i = 0; i <= MAX_ENTRIES; i++) store.set(`r${i}`, "%0", `c${i}`);
    expect(store.get("r0", "%0")).toBeUndefined();
    expect(store.get(`r${MAX_ENTRIES}`, "%0")).toBe(`c${MAX_ENTRIES}`);
  });

  it("start empty from a file that is missing or not theirs", () => {
    expect(new ReaderCursors(join(scratch, "missing.json")).get("me", "%0")).toBeUndefined();
    expect(new ReaderCursors(scratch).get("me", "%0")).toBeUndefined();
  });
});
