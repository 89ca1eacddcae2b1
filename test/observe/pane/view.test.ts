// A read view built from an observer's publications answers every cursor exactly as the observer
// does (the engine thread's front answers reads from it: src/mcp/engine/). Differential: random
// output of every kind a pane prints, resizes, gaps and its end go to an observer; publications are made at
// random points and whenever the observer issues a cursor (as the engine's publisher does); at the
// same state, the view's answer for each cursor and limits must equal the observer's.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeCursor } from "../../../src/observe/cursor/codec.js";
import { PaneObserver, type PaneIdentity } from "../../../src/observe/pane/observer.js";
import { PaneOutbox } from "../../../src/observe/pane/publication.js";
import { PaneView } from "../../../src/observe/pane/view.js";
import type { MissedReason, ReadLimits } from "../../../src/observe/read/delta.js";
import { prng } from "../../support/prng.js";

const key = randomBytes(32);
const identity: PaneIdentity = { paneId: "%3", panePid: 4242, serverPid: 99, serverStart: 1_700_000_000, instance: randomBytes(8) };
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * An observer published to a view on the same thread: what the engine and the front do across two.
 * News is published at a later turn (`due`, as the publisher's setImmediate), a cursor at once.
 */
function published(pane: PaneObserver): { view: () => PaneView; seq: () => number; publish: () => void; due: () => boolean } {
  let view: PaneView | undefined;
  let seq = -1;
  let due = false;
  const source = { paneId: pane.paneId, start: () => pane.publicationStart(), publication: (since: number) => pane.publication(since) };
  const publish = (): void => {
    const publication = outbox.take(Infinity);
    due = false;
    if (!publication) return; // nothing new since the last: the view has it all
    view ??= new PaneView(outbox.id, publication.start ?? expect.fail("the first publication starts the view"));
    view.apply(publication);
    seq = publication.seq;
    due = false;
  };
  const outbox = new PaneOutbox(1, source, (_, when) => (when === "now" ? publish() : (due = true)));
  pane.publishTo(outbox);
  return { view: () => view ?? expect.fail("no publication yet"), seq: () => seq, publish, due: () => due };
}

/** Output of the kinds a pane prints: log lines, a progress bar, TUI repaints, colours, clears, the alternate screen. */
function output(next: () => number, n: number): string {
  switch (Math.floor(next() * 9)) {
    case 0:
    case 1:
      return Array.from({ length: 1 + Math.floor(next() * 40) }, (_, i) => `line ${n}.${i} ${"x".repeat(Math.floor(next() * 70))}\r\n`).join("");
    case 2:
      return `\r[${"#".repeat(Math.floor(next() * 20)).padEnd(20)}] ${Math.floor(next() * 100)}%`;
    case 3:
      return `\x1b[${1 + Math.floor(next() * 8)};${1 + Math.floor(next() * 30)}H\x1b[3${Math.floor(next() * 8)}mcell ${n}\x1b[0m\x1b[K`;
    case 4:
      return `\x1b[2J\x1b[Hcleared ${n}\r\n`;
    case 5:
      return next() < 0.5 ? `\x1b[?1049h\x1b[Hfull screen ${n}` : `\x1b[?1049lback ${n}\r\n`;
    case 6:
      return `wide 界${n} e\u0301 ${"y".repeat(Math.floor(next() * 50))}\r\n`;
    case 7:
      return `\x1b[3Jscrollback cleared ${n}\r\n`;
    default:
      return "z".repeat(Math.floor(next() * 200));
  }
}

const LIMITS: ReadLimits[] = [{}, { maxBytes: 2048 }, { maxLines: 3 }, { maxBytes: 300, prefer: "raw" }, { maxBytes: 256 * 1024 }];

/** One seeded run; resolves with how many answers were compared and how each one that differed did. */
async function run(seed: number): Promise<{ compared: number; refused: number; differ: string[] }> {
  const next = prng(seed);
  // A small ring in half the runs: what it evicts is missed alike by the view (a view's ring was 1 MiB whatever the observer's).
  const ringBytes = next() < 0.5 ? 4096 : undefined;
  const pane = new PaneObserver({ identity, cols: 30 + Math.floor(next() * 40), rows: 4 + Math.floor(next() * 10), key, scrollback: 50, ringBytes });
  const mirror = published(pane);
  const cursors: string[] = [(await pane.read()).cursor];
  let compared = 0;
  let refused = 0;
  const differ: string[] = [];
  for (let step = 0; step < 120; step++) {
    // A later turn: news published or not yet (the emulator may be mid-way through the output).
    if (mirror.due() && next() < 0.5) mirror.publish();
    const r = next();
    if (r < 0.6) pane.ingest(encode(output(next, step)));
    else if (r < 0.65) pane.resize(20 + Math.floor(next() * 50), 3 + Math.floor(next() * 12));
    else if (r < 0.68) pane.addBreak(next() < 0.5 ? "paused" : ("overflow" as MissedReason), Math.floor(next() * 100));
    // Closed, and told how it ended now or only later (remain-on-exit: tmux says after the end).
    else if (r < 0.69) pane.markClosed(next() < 0.5 ? undefined : { status: Math.floor(next() * 4) });
    else {
      const limits = LIMITS[Math.floor(next() * LIMITS.length)] as ReadLimits;
      const answer = await pane.read(cursors[Math.floor(next() * cursors.length)], limits);
      cursors.push(answer.cursor);
      if (cursors.length > 8) cursors.shift();
      // Both at the same state: every byte applied, the view given everything since.
      await pane.screenText();
      mirror.publish();
      for (const cursor of cursors) {
        const view = mirror.view().answer(decodeCursor(cursor, key), limits);
        const own = await pane.read(cursor, limits);
        // The observer explains a discontinuity itself (the view leaves it to the engine).
        if (own.missed && own.reason !== "overflow" && own.reason !== "paused") continue;
        if (!view) {
          refused++;
          continue;
        }
        compared++;
        expect(mirror.seq()).toBe(pane.sequence);
        for (const field of new Set([...Object.keys(own), ...Object.keys(view)])) {
          const mine = JSON.stringify((view as unknown as Record<string, unknown>)[field]);
          const theirs = JSON.stringify((own as unknown as Record<string, unknown>)[field]);
          if (mine !== theirs) differ.push(`seed ${seed} step ${step} ${field}: view ${mine?.slice(0, 300)} observer ${theirs?.slice(0, 300)}`);
        }
      }
    }
  }
  return { compared, refused, differ };
}

/** An observer, its outbox (publications made when the test takes them) and a view given the first. */
function publishedPane(plainUntil: number): { pane: PaneObserver; outbox: PaneOutbox; view: PaneView } {
  const pane = new PaneObserver({ identity, cols: 20, rows: 4, key, scrollback: 50 });
  const outbox = new PaneOutbox(1, { paneId: pane.paneId, start: () => pane.publicationStart(), publication: (since) => pane.publication(since) }, () => undefined);
  pane.publishTo(outbox);
  const first = outbox.take(plainUntil) ?? expect.fail("a first publication");
  const view = new PaneView(1, first.start ?? expect.fail("no start"));
  view.apply(first);
  return { pane, outbox, view };
}

describe("PaneView", () => {
  it("answers every cursor the observer issued as the observer does, whatever happened between publications", async () => {
    let compared = 0;
    let refused = 0;
    const differ: string[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const result = await run(seed);
      compared += result.compared;
      refused += result.refused;
      differ.push(...result.differ);
    }
    expect(differ.slice(0, 3)).toEqual([]);
    // Every cursor is issued at a publication: the view answers them all.
    expect(refused).toBe(0);
    expect(compared).toBeGreaterThan(2000);
  });

  it("refuses a cursor issued at no publication it took: between two, lines may change text without a stamp", async () => {
    const { pane, outbox, view } = publishedPane(Infinity);
    pane.ingest(encode("one\r\ntwo\r\n"));
    // Issued by the observer and never published (the outbox's owner made no publication).
    const between = decodeCursor((await pane.read()).cursor, key);
    pane.ingest(encode("three\r\n"));
    await pane.screenText();
    view.apply(outbox.take(Infinity) ?? expect.fail("news"));
    expect(between.seq).toBeLessThan(pane.sequence);
    expect(view.answer(between, {})).toBeUndefined();
    // The same view answers a cursor at the publication it took (nothing new since: none made).
    const at = decodeCursor((await pane.read()).cursor, key);
    expect(outbox.take(Infinity)).toBeUndefined();
    expect(view.answer(at, {})?.rows).toEqual([]);
  });

  it("counts the rows that scrolled past the history before a read as the observer does", async () => {
    const { pane, outbox, view } = publishedPane(Infinity);
    const cursor = decodeCursor((await pane.read()).cursor, key);
    const read = outbox.take(Infinity); // the cursor's state, when it is new
    if (read) view.apply(read);
    for (let i = 0; i < 200; i++) pane.ingest(encode(`entry ${i}\r\n`));
    await pane.screenText();
    view.apply(outbox.take(Infinity) ?? expect.fail("news"));
    const own = await pane.read(cursor);
    const answer = view.answer(cursor, {}) ?? expect.fail("answered");
    // 200 entries on a 4-row screen with 50 lines of history: the last 53 are listed.
    expect(answer.rows).toHaveLength(53);
    expect(answer.truncated.rows).toBe(147);
    expect(answer.truncated).toEqual(own.truncated);
    expect(answer.patch?.scrolledPast).toBe(147);
  });

  it("hears how a pane ended when tmux says it only after the end (remain-on-exit)", async () => {
    const { pane, outbox, view } = publishedPane(Infinity);
    const cursor = decodeCursor((await pane.read()).cursor, key);
    pane.markClosed();
    view.apply(outbox.take(Infinity) ?? expect.fail("closed"));
    pane.markClosed({ status: 3 });
    view.apply(outbox.take(Infinity) ?? expect.fail("the exit status is news"));
    expect(view.answer(cursor, {})).toMatchObject({ closed: true, exit: { status: 3 } });
  });

  it("hears a pane's own size change while its screen stays at the cap", async () => {
    const { pane, outbox, view } = publishedPane(Infinity);
    pane.resize(5000, 4);
    await pane.screenText();
    view.apply(outbox.take(Infinity) ?? expect.fail("resized"));
    const cursor = decodeCursor((await pane.read()).cursor, key);
    const read = outbox.take(Infinity); // the cursor's state (the engine's publisher sends it after the turn)
    if (read) view.apply(read);
    pane.resize(6000, 4);
    await pane.screenText();
    view.apply(outbox.take(Infinity) ?? expect.fail("the pane's size is news"));
    expect(view.answer(cursor, {})?.screen.capped).toEqual({ cols: 6000, rows: 4 });
  });

  it("is not plain to read once its watch's verdict ran out, nor for a pane that is polled", () => {
    const { pane, outbox, view } = publishedPane(1000);
    expect(view.plainAt(999)).toBe(true);
    expect(view.plainAt(1000)).toBe(false);
    // Nothing new: no publication, the verdict alone.
    expect(outbox.take(2000)).toBeUndefined();
    view.renew(2000, outbox.cursorCount.now);
    expect(view.plainAt(1999)).toBe(true);
    pane.setStreaming(false);
    view.apply(outbox.take(Infinity) ?? expect.fail("news"));
    expect(view.plainAt(0)).toBe(false);
  });

  it("answers nothing once the observer issued a cursor, until it has taken that cursor's state", async () => {
    const { pane, outbox, view } = publishedPane(Infinity);
    expect(view.plainAt(0)).toBe(true);
    pane.ingest(new TextEncoder().encode("seen by the observer's caller\r\n"));
    await pane.read(); // the observer's thread answered: its caller saw the line
    expect(view.plainAt(0)).toBe(false); // an answer here would be older than that
    view.apply(outbox.take(Infinity) ?? expect.fail("the cursor's state"));
    expect(view.plainAt(0)).toBe(true);
    // A cursor with nothing new: the count comes with the verdict alone.
    await pane.read();
    expect(view.plainAt(0)).toBe(false);
    expect(outbox.take(Infinity)).toBeUndefined();
    view.renew(Infinity, outbox.cursorCount.now);
    expect(view.plainAt(0)).toBe(true);
  });
});
