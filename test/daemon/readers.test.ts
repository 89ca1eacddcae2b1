// Named readers' cursors: kept per reader and pane, written through to a journal a new daemon reads
// (nothing written when nothing moved, compacted when long, a torn last line skipped), and bounded
// (the least recently used let go first, and known as let go: its reader is told). A journal that
// cannot be read, or a damaged line, is never a silent start over: said once, and its readers told;
// a file with damaged lines is rewritten without them at once, so the next daemon says nothing again.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
    const warned: string[] = [];
    const store = new ReaderCursors(file, (line) => void warned.push(line));
    // Cut before its answer left: the reader has no cursor it was not given, and nothing to be told.
    expect([store.get("me", "%1"), store.get("me", "%2"), store.loss("me", "%2"), store.loss("new", "%2"), warned]).toEqual(["c1", undefined, undefined, undefined, []]);
    store.set("me", "%3", "c3");
    const again = new ReaderCursors(file);
    expect([again.get("me", "%1"), again.get("me", "%3")]).toEqual(["c1", "c3"]);
    // A last line whole but for its newline is read.
    writeFileSync(`${file}.whole`, `${JSON.stringify(["me\0%1", "c1"])}\n${JSON.stringify(["me\0%2", "c2"])}`);
    expect(new ReaderCursors(`${file}.whole`).get("me", "%2")).toBe("c2");
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
    expect([store.loss("r0", "%0"), store.loss("r1", "%0"), store.loss("new", "%0"), store.loss("r0", "%1")]).toEqual(["bound", undefined, undefined, undefined]);
    // The journal replayed, and compacted (the let-go key is a line of its own then), say the same.
    expect(new ReaderCursors(file).loss("r0", "%0")).toBe("bound");
    for (let i = 0; i < 2 * MAX_ENTRIES + COMPACT_SLACK; i++) store.set("busy", "%0", `b${i}`);
    expect(readFileSync(file, "utf8")).toContain(`${JSON.stringify(["r0\u0000%0", ""])}\n`);
    const compacted = new ReaderCursors(file);
    // "busy" took a place of its own: r1 was let go for it.
    expect([compacted.loss("r0", "%0"), compacted.loss("r1", "%0"), compacted.get("r2", "%0"), compacted.get("busy", "%0")]).toEqual(["bound", "bound", "c2", `b${2 * MAX_ENTRIES + COMPACT_SLACK - 1}`]);
    compacted.set("r0", "%0", "again");
    expect(compacted.loss("r0", "%0")).toBeUndefined();
  });

  it("start empty and silent from a file that is missing: every reader is new, and its first read is a first read", () => {
    const warned: string[] = [];
    const store = new ReaderCursors(join(scratch, "missing.json"), (line) => void warned.push(line));
    expect([store.get("me", "%0"), store.loss("me", "%0"), warned]).toEqual([undefined, undefined, []]);
  });

  it("from a file that cannot be read, say so once and tell each reader's first read of each pane that it may have missed output, until it is answered", () => {
    const warned: string[] = [];
    // A directory: unreadable as a file for any user, root too (a mode 000 file is not, for root).
    const store = new ReaderCursors(scratch, (line) => void warned.push(line));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/readers' cursors in .* could not be read \(.*EISDIR.*\): .*missed: forgotten; to end this, make the file readable \(chmod 600 .*\) or remove it$/);
    expect([store.get("me", "%0"), store.loss("me", "%0"), store.loss("you", "%1")]).toEqual([undefined, "unsure", "unsure"]);
    store.set("me", "%0", "c1");
    expect(store.loss("me", "%0")).toBeUndefined();
    // A refused cursor forgotten: that reader was answered (an error), its next read is a first read.
    store.forget("me", "%0");
    expect([store.loss("me", "%0"), store.loss("me", "%1")]).toEqual([undefined, "unsure"]);
  });

  it("keep the good lines around damaged ones, tell the readers a damaged line names, and become unsure only for damage that names no one", () => {
    const file = join(scratch, "damaged.jsonl");
    const line = (key: string, cursor?: string): string => `${JSON.stringify(cursor === undefined ? [key] : [key, cursor])}\n`;
    // A line cut short in the middle of the file (its key whole), then good lines.
    writeFileSync(file, `${line("me\0%1", "c1")}["you\\u0000%2","c\n${line("them\0%3", "c3")}`);
    const warned: string[] = [];
    const named = new ReaderCursors(file, (text) => void warned.push(text));
    expect([named.get("me", "%1"), named.get("them", "%3"), named.get("you", "%2")]).toEqual(["c1", "c3", undefined]);
    expect([named.loss("you", "%2"), named.loss("new", "%2"), named.loss("me", "%1")]).toEqual(["unread", undefined, undefined]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^panescope: 1 damaged line\(s\) in readers' cursors .* skipped .*the readers they name are told missed: forgotten/);
    // Read again: the journal's later line says so to a new store too.
    named.set("you", "%2", "c2");
    expect(new ReaderCursors(file).loss("you", "%2")).toBeUndefined();
    // A block of NULs (a crash's delayed allocation) names no reader: any reader may have lost its cursor.
    appendFileSync(file, "\0".repeat(40));
    const unsure: string[] = [];
    const store = new ReaderCursors(file, (text) => void unsure.push(text));
    expect([store.get("me", "%1"), store.get("you", "%2"), store.loss("new", "%9")]).toEqual(["c1", "c2", "unsure"]);
    expect(unsure).toHaveLength(1);
    expect(unsure[0]).toMatch(/1 name no reader, so each reader's first read of each pane from this daemon says missed: forgotten/);
  });

  it("rewrite a file with damaged lines at once, a new file renamed over it: the next store has no damage to say again, and a reader a line named is still told, once", () => {
    const file = join(scratch, "healed.jsonl");
    const server = "/tmp/tmux-0/work";
    const line = (key: string, cursor: string): string => `${JSON.stringify([key, cursor])}\n`;
    // A line cut short (its key whole), a block of NULs (naming no one), good lines around them.
    writeFileSync(file, `${JSON.stringify({ tmuxServer: server })}\n${line("me\0%1", "c1")}["you\\u0000%2","c\n${"\0".repeat(8)}\n${line("them\0%3", "c3")}`);
    const before = statSync(file).ino;
    const warned: string[] = [];
    const first = new ReaderCursors(file, (text) => void warned.push(text), server);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/2 damaged line\(s\) .*; the file is rewritten without them; nothing to do unless it recurs/);
    expect([first.loss("you", "%2"), first.loss("new", "%9")]).toEqual(["unread", "unsure"]);
    // Replaced whole (a kill leaves the old file or the new, never half of one), nothing left beside it.
    expect(statSync(file).ino).not.toBe(before);
    expect(readdirSync(scratch).filter((name) => name.startsWith("healed.jsonl."))).toEqual([]);
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe(JSON.stringify({ tmuxServer: server }));
    // The next daemon's store: silent, every cursor kept, and the reader not told yet still told why.
    const quiet: string[] = [];
    const next = new ReaderCursors(file, (text) => void quiet.push(text), server);
    expect(quiet).toEqual([]);
    expect([next.get("me", "%1"), next.get("them", "%3"), next.loss("you", "%2"), next.loss("new", "%9")]).toEqual(["c1", "c3", "unread", undefined]);
    // Told (its answer keeps a cursor): a store after that has nothing to tell it.
    next.set("you", "%2", "c2");
    expect(new ReaderCursors(file, undefined, server).loss("you", "%2")).toBeUndefined();
  });

  it("say in the log when a damaged file cannot be rewritten: the next daemon will say it again", () => {
    const file = join(scratch, "stuck.jsonl");
    writeFileSync(file, `${JSON.stringify(["me\0%1", "c1"])}\nnot json\n`);
    // The rewrite's temporary file cannot be made: a directory has its name.
    mkdirSync(`${file}.${process.pid}`);
    const warned: string[] = [];
    const store = new ReaderCursors(file, (text) => void warned.push(text));
    expect(store.get("me", "%1")).toBe("c1");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/; the file could not be rewritten without them \(.*EISDIR.*\): the next daemon says this again; /);
    expect(readFileSync(file, "utf8")).toContain("not json");
  });

  it("save a failure to write in the log once, not on every read", () => {
    const warned: string[] = [];
    const store = new ReaderCursors(join(scratch, "no-such-dir", "x.jsonl"), (line) => void warned.push(line));
    store.set("me", "%1", "c1");
    store.set("me", "%1", "c2");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/not saved/);
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
