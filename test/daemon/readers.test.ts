// Named readers' cursors: kept per reader and pane, written through to a journal a new daemon reads
// (nothing written when nothing moved, compacted when long, a torn last line skipped), and bounded
// (the least recently used let go first, and known as let go: its reader is told).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMPACT_SLACK, MAX_ENTRIES, ReaderCursors } from "../../src/daemon/readers.js";

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

  it("write nothing when a read answers the cursor it was given", () => {
    const file = join(scratch, "same.jsonl");
    const store = new ReaderCursors(file);
    store.set("me", "%1", "c1");
    const written = readFileSync(file, "utf8");
    store.set("me", "%1", "c1");
    expect(readFileSync(file, "utf8")).toBe(written);
    store.set("me", "%2", "c2");
    store.set("me", "%1", "c1"); // the same cursor, but %1 is used again: the order is kept too
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("compact the journal once it is long, keeping every reader's last cursor", () => {
    const file = join(scratch, "long.jsonl");
    const store = new ReaderCursors(file);
    store.set("you", "%2", "kept");
    for (let i = 0; i < 3 * COMPACT_SLACK; i++) store.set("me", "%1", `c${i}`);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean).length).toBeLessThanOrEqual(2 * 2 + COMPACT_SLACK);
    const again = new ReaderCursors(file);
    expect([again.get("me", "%1"), again.get("you", "%2")]).toEqual([`c${3 * COMPACT_SLACK - 1}`, "kept"]);
  });

  it("skip a last line torn by a kill, and land the next cursor on a line of its own", () => {
    const file = join(scratch, "torn.jsonl");
    writeFileSync(file, `${JSON.stringify(["me\0%1", "c1"])}\n["me\\u0000%2","c`);
    const store = new ReaderCursors(file);
    expect([store.get("me", "%1"), store.get("me", "%2")]).toEqual(["c1", undefined]);
    store.set("me", "%3", "c3");
    const again = new ReaderCursors(file);
    expect([again.get("me", "%1"), again.get("me", "%3")]).toEqual(["c1", "c3"]);
    appendFileSync(file, "not json\n");
    expect(new ReaderCursors(file).get("me", "%3")).toBe("c3");
  });

  it("forget the least recently used beyond the bound, and know whose they let go, also in a new store on the file, until a cursor is kept again", () => {
    const file = join(scratch, "bound.jsonl");
    const store = new ReaderCursors(file);
    for (let i = 0; i <= MAX_ENTRIES; i++) store.set(`r${i}`, "%0", `c${i}`);
    expect(store.get("r0", "%0")).toBeUndefined();
    expect(store.get(`r${MAX_ENTRIES}`, "%0")).toBe(`c${MAX_ENTRIES}`);
    // Let go by the bound, not never read: its reader's next read must say so (a new reader's must not).
    expect([store.wasForgotten("r0", "%0"), store.wasForgotten("r1", "%0"), store.wasForgotten("new", "%0"), store.wasForgotten("r0", "%1")]).toEqual([true, false, false, false]);
    // The journal replayed, and compacted (the let-go key is a line of its own then), say the same.
    expect(new ReaderCursors(file).wasForgotten("r0", "%0")).toBe(true);
    for (let i = 0; i < 2 * MAX_ENTRIES + COMPACT_SLACK; i++) store.set("busy", "%0", `b${i}`);
    expect(readFileSync(file, "utf8")).toContain(`${JSON.stringify(["r0\u0000%0", ""])}\n`);
    const compacted = new ReaderCursors(file);
    // "busy" took a place of its own: r1 was let go for it.
    expect([compacted.wasForgotten("r0", "%0"), compacted.wasForgotten("r1", "%0"), compacted.get("r2", "%0"), compacted.get("busy", "%0")]).toEqual([true, true, "c2", `b${2 * MAX_ENTRIES + COMPACT_SLACK - 1}`]);
    compacted.set("r0", "%0", "again");
    expect(compacted.wasForgotten("r0", "%0")).toBe(false);
  });

  it("start empty from a file that is missing or not theirs", () => {
    expect(new ReaderCursors(join(scratch, "missing.json")).get("me", "%0")).toBeUndefined();
    expect(new ReaderCursors(scratch).get("me", "%0")).toBeUndefined();
  });

  it("begin a new file with a line naming the tmux server, which a new store reads past, and keep it when compacting", () => {
    const file = join(scratch, "named.jsonl");
    const store = new ReaderCursors(file, undefined, "/tmp/tmux-0/work");
    store.set("me", "%1", "c1");
    store.set("me", "%2", "c2");
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe('{"tmuxServer":"/tmp/tmux-0/work"}');
    const again = new ReaderCursors(file, undefined, "/tmp/tmux-0/work");
    expect([again.get("me", "%1"), again.get("me", "%2")]).toEqual(["c1", "c2"]);
    for (let i = 0; i < 3 * COMPACT_SLACK; i++) again.set("me", "%1", `c${i}`);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    expect(lines[0]).toBe('{"tmuxServer":"/tmp/tmux-0/work"}');
    expect(lines.filter((line) => line.includes("tmuxServer"))).toHaveLength(1);
  });
});
