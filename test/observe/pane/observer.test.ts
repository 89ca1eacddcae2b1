// The pane observer: deltas since a cursor, in raw and rendered form, and every discontinuity flagged.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../../src/errors.js";
import { MAX_SCREEN_BACKLOG, PaneObserver, type PaneIdentity } from "../../../src/observe/pane/observer.js";

const key = randomBytes(32);
const identity: PaneIdentity = { paneId: "%3", panePid: 4242, serverPid: 99, serverStart: 1_700_000_000, instance: randomBytes(8) };
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function observer(options: Partial<ConstructorParameters<typeof PaneObserver>[0]> = {}): PaneObserver {
  return new PaneObserver({ identity, cols: 40, rows: 6, key, ...options });
}

/** Counts the times the observer wakes its waiters (private: the test looks inside on purpose). */
function countWakeups(pane: PaneObserver): () => number {
  const wakeup = (pane as unknown as { wakeup: { notify(): void } }).wakeup;
  const notify = wakeup.notify.bind(wakeup);
  let count = 0;
  wakeup.notify = () => {
    count++;
    notify();
  };
  return () => count;
}

describe("PaneObserver", () => {
  it("first read returns the visible screen and a cursor; a read with nothing new is empty", async () => {
    const pane = observer();
    pane.ingest(bytes("$ echo hi\r\nhi\r\n$ "));
    const first = await pane.read();
    expect(first.first).toBe(true);
    expect(first.rows.map((r) => r.text)).toEqual(["$ echo hi", "hi", "$"]);
    expect(first.screen).toMatchObject({ cols: 40, rows: 6, top: 0, cursorX: 2, cursorY: 2, alternate: false });
    const again = await pane.read(first.cursor);
    expect(again).toMatchObject({ first: false, rows: [], raw: "", rawBytes: 0, missed: false, closed: false });
    expect(again.cursor.length).toBeLessThan(200);
  });

  it("a progress bar gives one changed row and its frames in raw", async () => {
    const pane = observer();
    const start = await pane.read();
    for (let i = 1; i <= 100; i++) pane.ingest(bytes(`\r\x1b[32m${i}%\x1b[0m`));
    const delta = await pane.read(start.cursor);
    expect(delta.rows).toEqual([{ line: 0, text: "100%" }]);
    expect(delta.raw.split("\r").filter(Boolean)).toHaveLength(100);
    expect(delta.raw).not.toContain("32m");
  });

  it("raw text never begins with an escape fragment or a broken character across reads", async () => {
    const pane = observer();
    const start = await pane.read();
    pane.ingest(bytes("\x1b[1;3"));
    pane.ingest(Uint8Array.of(0xe6)); // inside a sequence tmux ignores bytes ≥ 0x80: it goes on
    const mid = await pane.read(start.cursor);
    pane.ingest(Uint8Array.of(0x97, 0xa5));
    pane.ingest(bytes("2mhello "));
    pane.ingest(Uint8Array.of(0xe6));
    const next = await pane.read(mid.cursor);
    expect(mid.raw + next.raw).toBe("hello ");
    // Half of 日 at a read's end: the next read gives it whole.
    pane.ingest(Uint8Array.of(0x97, 0xa5));
    const end = await pane.read(next.cursor);
    expect(next.raw + end.raw).toBe("hello 日");
    const pane2 = observer();
    const s2 = await pane2.read();
    pane2.ingest(bytes("\x1b[1;3"));
    const m2 = await pane2.read(s2.cursor);
    pane2.ingest(bytes("2mhello"));
    expect(m2.raw + (await pane2.read(m2.cursor)).raw).toBe("hello");
  });

  it("reading an offset evicted from the ring reports exactly the missed bytes", async () => {
    const pane = observer({ ringBytes: 64 * 1024 });
    const start = await pane.read();
    const chunk = bytes("x".repeat(1023) + "\n");
    for (let i = 0; i < 100; i++) pane.ingest(chunk);
    const delta = await pane.read(start.cursor);
    expect(delta.missed).toBe(true);
    expect(delta.reason).toBe("overflow");
    expect(delta.missedBytes).toBe(100 * 1024 - 64 * 1024);
    expect(delta.rawBytes).toBe(64 * 1024);
  });

  it("lines a program's clear erased (CSI 3J) are no loss, though a reader had not read them since they left the screen", async () => {
    const lines = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\r\n`).join("");
    const pane = observer({ scrollback: 50 });
    pane.ingest(bytes(`# seq 20\r\n${lines(1, 20)}# `));
    const before = await pane.read();
    // `clear` as a shell runs it: its echo scrolls the screen once, then home, erase, erase history.
    pane.ingest(bytes("clear\r\n\x1b[H\x1b[J\x1b[3J# "));
    const cleared = await pane.read(before.cursor);
    expect(cleared).toMatchObject({ missed: false, missedBytes: 0, raw: "clear\n# " });
    expect(cleared.rows[0]?.text).toBe("#");
    // RIS (`reset`, `printf '\033c'`) erases the history too.
    pane.ingest(bytes(`seq 20\r\n${lines(1, 20)}# reset\r\n\x1bc# `));
    expect(await pane.read(cleared.cursor)).toMatchObject({ missed: false, missedBytes: 0 });
  });

  it("a line deleted on a screen with no history yet is a change in place, not a scroll or a loss", async () => {
    const pane = observer();
    pane.ingest(bytes("a1\r\na2\r\na3\r\na4"));
    const start = await pane.read();
    pane.ingest(bytes("\x1b[2;1H\x1b[M"));
    const delta = await pane.read(start.cursor);
    expect(delta).toMatchObject({ missed: false, screen: { top: 0 } });
    expect(delta.rows).toEqual([{ line: 1, text: "a3" }, { line: 2, text: "a4" }, { line: 3, text: "" }]);
  });

  it("a cursor of an earlier panescope process is answered as missed, restarted, with the screen", async () => {
    const before = observer({ identity: { ...identity, instance: randomBytes(8) } });
    before.ingest(bytes("old"));
    const old = await before.read();
    const now = observer();
    now.ingest(bytes("current"));
    const delta = await now.read(old.cursor);
    expect(delta).toMatchObject({ first: true, missed: true, reason: "restarted", rows: [{ line: 0, text: "current" }] });
  });

  it("server restart and pane respawn are named as such", async () => {
    const old = await observer().read();
    expect((await observer({ identity: { ...identity, serverStart: 1 } }).read(old.cursor)).reason).toBe("server-restarted");
    expect((await observer({ identity: { ...identity, panePid: 1 } }).read(old.cursor)).reason).toBe("respawned");
  });

  it("a cursor from before both panescope and the server restarted is named server-restarted: every pane is new", async () => {
    const old = await observer({ identity: { ...identity, instance: randomBytes(8) } }).read();
    expect((await observer({ identity: { ...identity, serverStart: 1 } }).read(old.cursor)).reason).toBe("server-restarted");
  });

  it("a cursor from before an observer was re-created is answered as evicted", async () => {
    const before = observer();
    before.ingest(bytes("abc"));
    const old = await before.read();
    const after = observer({ startOffset: 1000, startSeq: 1000, predecessor: "evicted" });
    expect((await after.read(old.cursor)).reason).toBe("evicted");
  });

  it("a cursor of another pane and an altered cursor are errors", async () => {
    const pane = observer();
    const other = await observer({ identity: { ...identity, paneId: "%4" } }).read();
    await expect(pane.read(other.cursor)).rejects.toSatisfy((e) => isPanescopeError(e, "cursor-other-pane"));
    const mine = (await pane.read()).cursor;
    const altered = mine.slice(0, 5) + (mine[5] === "A" ? "B" : "A") + mine.slice(6);
    await expect(pane.read(altered)).rejects.toSatisfy((e) => isPanescopeError(e, "cursor-tampered") || isPanescopeError(e, "cursor-malformed"));
  });

  it("a pause re-seeds the screen, keeps line numbers increasing and flags the gap", async () => {
    const pane = observer();
    pane.ingest(bytes("a\r\nb"));
    const start = await pane.read();
    pane.reseed({ cols: 40, rows: 6, lines: ["fresh", "", "", "", "", ""], cursorX: 5, cursorY: 0 }, "paused");
    const delta = await pane.read(start.cursor);
    expect(delta).toMatchObject({ missed: true, reason: "paused" });
    expect(delta.rows[0]).toEqual({ line: 6, text: "fresh" });
    expect(delta.screen.top).toBe(6);
  });

  it("seeding an alternate screen shows it and restores the saved normal screen when the program leaves", async () => {
    const pane = observer();
    pane.seed({
      cols: 40,
      rows: 6,
      lines: ["$ vim", "", "", "", "", ""],
      cursorX: 0,
      cursorY: 0,
      alternate: { lines: ["hello", "~", "~", "~", "~", "\"f\" 1L"], savedX: 0, savedY: 1 },
    });
    const first = await pane.read();
    expect(first.screen.alternate).toBe(true);
    expect(first.rows.map((r) => r.text)).toEqual(["hello", "~", "~", "~", "~", "\"f\" 1L"]);
    pane.ingest(bytes("\x1b[?1049l$ "));
    const after = await pane.read(first.cursor);
    expect(after.screen.alternate).toBe(false);
    expect(after.rows.map((r) => r.text)).toEqual(["$ vim", "$", "", "", "", ""]);
  });

  it("maxLines keeps the bottom rows and says how many were cut; maxBytes keeps the newest raw", async () => {
    const pane = observer();
    const start = await pane.read();
    pane.ingest(bytes("one\r\ntwo\r\nthree\r\n"));
    const delta = await pane.read(start.cursor, { maxLines: 2 });
    expect(delta.rows.map((r) => r.text)).toEqual(["two", "three"]);
    expect(delta.truncated).toEqual({ rows: 1, rawChars: 0 });
    const pane2 = observer();
    const s2 = await pane2.read();
    pane2.ingest(bytes("0123456789"));
    // A row costs its text and its frame as sent ({"line":0,"text":""}, 21 bytes): 31 here.
    const d2 = await pane2.read(s2.cursor, { maxBytes: 34 });
    expect(d2.rows).toEqual([{ line: 0, text: "0123456789" }]);
    expect(d2.raw).toBe("789");
    expect(d2.truncated).toEqual({ rows: 0, rawChars: 7 });
    // A raw reader's budget goes to raw first.
    const d3 = await pane2.read(s2.cursor, { maxBytes: 34, prefer: "raw" });
    expect(d3.raw).toBe("0123456789");
    expect(d3.rows).toEqual([]);
    expect(d3.truncated).toEqual({ rows: 1, rawChars: 0 });
  });

  it("reads during a flood the emulator has not caught up with lose nothing: their union is the whole stream", async () => {
    const pane = observer({ ringBytes: 32 * 1024 * 1024 });
    let cursor = (await pane.read()).cursor;
    const lines = Array.from({ length: 400_000 }, (_, i) => `line ${i}`);
    for (let i = 0; i < lines.length; i += 1000) pane.ingest(bytes(lines.slice(i, i + 1000).join("\r\n") + "\r\n"));
    let raw = "";
    while (!raw.endsWith("line 399999\n")) {
      const delta = await pane.read(cursor);
      expect(delta.missed).toBe(false);
      raw += delta.raw;
      cursor = delta.cursor;
    }
    expect(raw).toBe(lines.join("\n") + "\n");
  });

  it("waitForChange returns as soon as output is applied, not at its deadline", async () => {
    const pane = observer();
    const start = await pane.read();
    // The deadline is past the test's timeout: only the output can end this wait in time.
    const waiting = pane.waitForChange(start.cursor, 60_000);
    setImmediate(() => pane.ingest(bytes("ready")));
    const delta = await waiting;
    expect(delta.rows).toEqual([{ line: 0, text: "ready" }]);
  }, 20_000);

  it("waitForChange ends on abort, on timeout with an empty delta, and on close", async () => {
    const pane = observer();
    const start = await pane.read();
    const controller = new AbortController();
    const aborted = pane.waitForChange(start.cursor, 60_000, controller.signal);
    controller.abort();
    expect((await aborted).rows).toEqual([]);
    expect((await pane.waitForChange(start.cursor, 10)).rows).toEqual([]);
    const closing = pane.waitForChange(start.cursor, 60_000);
    pane.markClosed();
    expect((await closing).closed).toBe(true);
  });

  it("many waits on one pane neither spin nor starve the event loop, and all see the output", async () => {
    const pane = observer();
    const start = await pane.read();
    const wakeups = countWakeups(pane);
    const ended: string[] = [];
    // Deadlines past the test's timeout: only the news can end these waits in time.
    const waits = Array.from({ length: 20 }, () => pane.waitForChange(start.cursor, 60_000).finally(() => ended.push("wait")));
    // The event loop stays free while they wait: a timer set now fires, and it brings the news.
    setTimeout(() => {
      ended.push("timer");
      pane.ingest(bytes("news\r\n"));
    }, 0);
    const deltas = await Promise.all(waits);
    expect(ended).toEqual(["timer", ...waits.map(() => "wait")]);
    for (const delta of deltas) expect(delta.rows.map((r) => r.text)).toEqual(["news"]);
    // One piece of news, one wake-up for all twenty: idle waiters never look at the screen.
    expect(wakeups()).toBe(1);
  }, 20_000);

  it("a waiter woken with nothing new goes back to sleep without waking the others", async () => {
    const pane = observer();
    const start = await pane.read();
    const wakeups = countWakeups(pane);
    // The first wait is asleep when the second starts: the second's look at the screen finds
    // nothing new and must not wake the first (they used to wake each other forever, without
    // yielding: 100% CPU, every timer, read and tmux reply starved until the deadline).
    const ended: string[] = [];
    const first = pane.waitForChange(start.cursor, 1000).finally(() => ended.push("first"));
    await new Promise((resolve) => setImmediate(resolve));
    // Due long before the waits' deadlines: it fires first unless the waits hold the loop.
    setTimeout(() => ended.push("timer"), 0);
    const second = pane.waitForChange(start.cursor, 1000).finally(() => ended.push("second"));
    for (const delta of await Promise.all([first, second])) expect(delta).toMatchObject({ rows: [], raw: "", missed: false });
    expect(ended[0]).toBe("timer");
    expect(wakeups()).toBe(0);
  });

  it("an emulator that falls more than its bound behind drops its queue, keeps raw, and asks for a reseed", async () => {
    let stale = 0;
    const pane = observer({ onStale: () => stale++, ringBytes: 8 * 1024 * 1024 });
    const start = await pane.read();
    // Queued in one turn, faster than xterm can parse: the bound is crossed once.
    const chunk = bytes("x".repeat(64 * 1024));
    const chunks = Math.ceil(MAX_SCREEN_BACKLOG / chunk.length) + 8;
    for (let i = 0; i < chunks; i++) pane.ingest(chunk);
    expect(stale).toBe(1);
    // tmux's screen replaces the stale one; the jump is flagged, and raw lost nothing.
    pane.reseed({ cols: 40, rows: 6, lines: ["fresh from tmux"], cursorX: 0, cursorY: 1 }, "overflow");
    const delta = await pane.read(start.cursor, { maxBytes: 4 * 1024 * 1024 });
    expect(delta).toMatchObject({ missed: true, reason: "overflow" });
    expect(delta.rows.map((r) => r.text)).toContain("fresh from tmux");
    expect(delta.rawBytes).toBe(chunks * chunk.length);
    pane.ingest(bytes("\r\nlive again"));
    const next = await pane.read(delta.cursor);
    expect(next.missed).toBe(false);
    expect(next.raw).toBe("\nlive again");
    expect(next.rows.map((r) => r.text)).toEqual(["live again"]);
    expect(stale).toBe(1);
  });

  it("one write that scrolls past the scrollback flags nothing: rows are diffed at its scrolls, before lines leave memory", async () => {
    const pane = new PaneObserver({ identity, cols: 20, rows: 5, key, scrollback: 50 });
    const start = await pane.read();
    const waiting = pane.waitForChange(start.cursor, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    // 400 short lines in one chunk (a 4 KiB pty read holds ~1000 of them): 8× the scrollback.
    const lines = Array.from({ length: 400 }, (_, i) => `${i + 1}`);
    pane.ingest(bytes(lines.map((l) => `${l}\r\n`).join("")));
    const delta = await waiting;
    expect(delta.missed).toBe(false);
    expect(delta.raw.split("\n").filter((l) => l !== "")).toEqual(lines);
    expect(delta.rows.map((r) => r.text).slice(-3)).toEqual(["398", "399", "400"]);
  });

  it("a flood the screen skipped unparsed counts every row it scrolled past the history, not a loss", async () => {
    const pane = new PaneObserver({ identity, cols: 20, rows: 5, key, scrollback: 50 });
    const start = await pane.read();
    // Fed unread, far ahead of the emulator: it skips what the rest pushes out of memory (flood-skip.ts).
    const flood = bytes(Array.from({ length: 5000 }, (_, i) => `${i + 1}\r\n`).join(""));
    for (let at = 0; at < flood.length; at += 4096) pane.ingest(flood.subarray(at, at + 4096));
    const delta = await pane.read(start.cursor);
    expect(delta.missed).toBe(false);
    // The emulator holds 55 lines: "4947" to "5000" and the blank cursor row; "1" to "4946" left it.
    expect(delta.rows.map((r) => r.text)).toEqual(Array.from({ length: 54 }, (_, i) => `${4947 + i}`));
    expect(delta.truncated.rows).toBe(4946);
    expect(delta.patch?.scrolledPast).toBe(4946);
  });

  it("an emulator that fails on the output asks for tmux's screen (nothing lost), keeps raw, and goes on after the resync", async () => {
    const asked: Array<{ reason: string | undefined; error: unknown }> = [];
    const pane = new PaneObserver({ identity, cols: 12, rows: 5, key, onStale: (reason, error) => asked.push({ reason, error }) });
    const start = await pane.read();
    pane.ingest(bytes("\x1b[5;12H\x1b[1J")); // xterm 6.0 throws on this (ED 1, last cell, no history)
    expect(await pane.read(start.cursor)).toMatchObject({ missed: false, raw: "", rows: [] });
    // Output after the failure (not joined to the failed write: that one is parsed) waits for the resync.
    pane.ingest(bytes("\x1b[1;1Hlost?"));
    // Until tmux's screen arrives, reads stop at the failed write: raw and rows stay in step.
    const during = await pane.read(start.cursor);
    expect(during).toMatchObject({ missed: false, raw: "", rows: [] });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.reason).toBeUndefined();
    expect(String(asked[0]?.error)).toMatch(/TypeError/);
    pane.resync({ cols: 12, rows: 5, lines: ["lost?"], cursorX: 5, cursorY: 0 });
    const delta = await pane.read(start.cursor);
    expect(delta.missed).toBe(false);
    expect(delta.raw).toBe("lost?");
    expect(delta.rows.map((r) => r.text)).toContain("lost?");
    pane.ingest(bytes("\r\nnext"));
    const next = await pane.read(delta.cursor);
    expect(next).toMatchObject({ missed: false, raw: "\nnext" });
    expect(next.rows.map((r) => r.text)).toEqual(["next"]);
    expect(asked).toHaveLength(1);
  });

  it("after clear every row a reader saw that is now blank is reported blank, at the same line numbers", async () => {
    const pane = observer();
    for (let i = 0; i < 20; i++) pane.ingest(bytes(`out ${i}\r\n`));
    pane.ingest(bytes("$ clear"));
    const seen = await pane.read();
    const top = seen.screen.top;
    // Enter scrolls the full screen by one line, then clear empties screen and scrollback.
    pane.ingest(bytes("\r\n\x1b[H\x1b[2J\x1b[3J$ "));
    const delta = await pane.read(seen.cursor);
    expect(delta.screen.top).toBe(top + 1);
    expect(delta.rows).toEqual([
      { line: top + 1, text: "$" },
      // Line top + 6 came with the scroll, blank: never shown, so nothing to report.
      ...[2, 3, 4, 5].map((y) => ({ line: top + y, text: "" })),
    ]);
  });

  it("a heal takes tmux's rows keeping line numbers: only rows that differ are news, and they are named", async () => {
    const pane = observer();
    for (let i = 0; i < 10; i++) pane.ingest(bytes(`line ${i}\r\n`));
    pane.ingest(bytes("$ "));
    const seen = await pane.read();
    const top = seen.screen.top;
    // tmux shows row 2 differently (say, a width xterm draws otherwise).
    const lines = ["line 0", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "LINE 7", "line 8", "line 9", "$ "];
    pane.heal({ cols: 40, rows: 6, lines, cursorX: 2, cursorY: 5 }, [2]);
    const delta = await pane.read(seen.cursor);
    expect(delta.screen.top).toBe(top);
    expect(delta.rows).toEqual([{ line: top + 2, text: "LINE 7" }]);
    expect(delta).toMatchObject({ healed: [top + 2], missed: false, first: false, raw: "" });
    // Later reads carry on normally, without the note.
    pane.ingest(bytes("ok"));
    const next = await pane.read(delta.cursor);
    expect(next.healed).toBeUndefined();
    expect(next.rows).toEqual([{ line: top + 5, text: "$ ok" }]);
    expect(pane.healCount).toBe(1);
  });

  it("rows follow a resize: the whole screen is reported at the new size", async () => {
    const pane = observer();
    pane.ingest(bytes("abc"));
    const start = await pane.read();
    pane.resize(20, 3);
    const delta = await pane.read(start.cursor);
    expect(delta.screen).toMatchObject({ cols: 20, rows: 3 });
    expect(delta.rows.map((r) => r.text)).toEqual(["abc", "", ""]);
  });
});
