// The write scheduler through its seam (a fake terminal): writes are parsed in order with their
// callbacks right after, a flood skip's covered writes still run theirs, and a skip walked in vain
// is not tried again over the same bytes, nor offered at all while the next write is not plain text.
import { describe, expect, it } from "vitest";
import { WriteScheduler, type ParseTarget } from "../../../src/observe/emulator/scheduler.js";

class FakeTerminal implements ParseTarget {
  readonly parsed: string[] = [];
  readonly offered: number[] = [];
  readonly writes = new WriteScheduler(this);
  constructor(private readonly plan: (pieces: readonly Uint8Array[]) => { skipped: boolean; pieces: number } | undefined = () => undefined) {}
  parseWrite(data: Uint8Array | string): void {
    this.parsed.push(typeof data === "string" ? data : new TextDecoder().decode(data));
  }
  skipFlood(pieces: readonly Uint8Array[]): { skipped: boolean; pieces: number } | undefined {
    this.offered.push(pieces.length);
    return this.plan(pieces);
  }
  pump(): boolean {
    return this.writes.pump();
  }
}

/** A write of plain text lines, `bytes` long, each line naming the write. */
function chunk(name: string, bytes: number): Uint8Array {
  return new TextEncoder().encode(`${name}\r\n`.repeat(bytes / (name.length + 2)));
}

/** A write that is not plain text (each line drawn at a cursor position, as a TUI draws), `bytes` long. */
function styled(name: string, bytes: number): Uint8Array {
  const line = `\x1b[2;1H${name}\x1b[0m\r\n`;
  return new TextEncoder().encode(line.repeat(bytes / line.length));
}

/** Queues `chunks` (nobody waiting), then parses all of it now, as a read that catches up does. */
function catchUp(terminal: FakeTerminal, chunks: Uint8Array[], applied: number[]): void {
  chunks.forEach((data, i) => terminal.writes.write(data, () => applied.push(i), false));
  terminal.writes.hurry();
  while (terminal.writes.pump());
}

describe("the write scheduler", () => {
  it("parses writes in order, each one's callback right after it", () => {
    const terminal = new FakeTerminal();
    const events: string[] = [];
    terminal.writes.write("a", () => events.push(`applied a after ${terminal.parsed.join("")}`));
    terminal.writes.write("b", () => events.push(`applied b after ${terminal.parsed.join("")}`));
    while (terminal.writes.pump());
    expect(terminal.parsed).toEqual(["a", "b"]);
    expect(events).toEqual(["applied a after a", "applied b after ab"]);
    expect(terminal.writes.busy).toBe(false);
  });

  it("runs the callbacks of the writes a flood skip covered, in order, and parses only the rest", () => {
    const terminal = new FakeTerminal(() => ({ skipped: true, pieces: 2 }));
    const applied: number[] = [];
    catchUp(terminal, [chunk("one", 5000), chunk("two", 5000), chunk("three", 5000)], applied);
    expect(applied).toEqual([0, 1, 2]);
    expect(terminal.parsed).toHaveLength(1);
    expect(terminal.parsed[0]).toMatch(/^three\r\n/);
  });

  it("does not offer the same bytes for a skip again once a walk over them found nothing", () => {
    const terminal = new FakeTerminal((pieces) => ({ skipped: false, pieces: pieces.length }));
    const applied: number[] = [];
    catchUp(terminal, [chunk("one", 5000), chunk("two", 5000), chunk("three", 5000)], applied);
    expect(terminal.offered).toEqual([3]);
    expect(terminal.parsed.map((text) => text.slice(0, text.indexOf("\r")))).toEqual(["one", "two", "three"]);
    expect(applied).toEqual([0, 1, 2]);
  });

  it("offers no skip while the next write is not plain text: one starts there only after it", () => {
    const terminal = new FakeTerminal((pieces) => ({ skipped: false, pieces: pieces.length }));
    const applied: number[] = [];
    catchUp(terminal, [styled("one", 5000), styled("two", 5000), chunk("three", 5000), chunk("four", 5000)], applied);
    expect(terminal.offered).toEqual([2]);
    expect(applied).toEqual([0, 1, 2, 3]);
  });

  it("offers no skip over a little plain text before a write that is not (a TUI's stream cut mid-row)", () => {
    const terminal = new FakeTerminal((pieces) => ({ skipped: false, pieces: pieces.length }));
    const applied: number[] = [];
    catchUp(terminal, [chunk("a", 99), styled("one", 5000), styled("two", 5000), chunk("three", 5000), chunk("four", 5000)], applied);
    expect(terminal.offered).toEqual([2]);
    expect(applied).toEqual([0, 1, 2, 3, 4]);
  });

  it("does not offer the bytes up to the end of the write a walk stopped in again", () => {
    // The walk crossed the first write and stopped inside the second (not plain text after all).
    const terminal = new FakeTerminal(() => ({ skipped: false, pieces: 1 }));
    const applied: number[] = [];
    catchUp(terminal, [chunk("one", 5000), chunk("two", 5000), chunk("three", 5000)], applied);
    expect(terminal.offered).toEqual([3]);
    expect(terminal.parsed.map((text) => text.slice(0, text.indexOf("\r")))).toEqual(["one", "two", "three"]);
  });

  it("joins small joinable writes as they wait: one write of all their bytes, the last one's callback once", () => {
    const terminal = new FakeTerminal();
    const applied: number[] = [];
    const lines = Array.from({ length: 600 }, (_, i) => new TextEncoder().encode(`line ${i}\r\n`));
    lines.forEach((data, i) => terminal.writes.write(data, () => applied.push(i), false, true));
    const bytes = lines.reduce((sum, data) => sum + data.length, 0);
    expect(terminal.writes.backlog).toBe(bytes);
    terminal.writes.hurry();
    while (terminal.writes.pump());
    // Pieces of at most 16 KiB: every byte once, in order; each piece's last callback only.
    expect(terminal.parsed.join("")).toBe(lines.map((data) => new TextDecoder().decode(data)).join(""));
    expect(terminal.parsed.length).toBeLessThan(5);
    expect(terminal.parsed.every((text) => text.length <= 16 * 1024)).toBe(true);
    expect(applied.at(-1)).toBe(599);
    expect(applied.length).toBe(terminal.parsed.length);
    expect(terminal.writes.backlog).toBe(0);
  });

  it("joins no write that is not joinable, large, a string, or already parsed", () => {
    const terminal = new FakeTerminal();
    const applied: string[] = [];
    const write = (text: string, joinable: boolean): void => terminal.writes.write(new TextEncoder().encode(text), () => applied.push(text), false, joinable);
    write("a", true);
    write("b", false); // not joinable: its own write, and none joins it
    write("c", true);
    write("x".repeat(3000), true); // too large to join
    terminal.writes.write("", () => applied.push("mark"), false, true); // a string marks a point
    write("d", true);
    write("e", true);
    terminal.writes.hurry();
    while (terminal.writes.pump());
    expect(terminal.parsed).toEqual(["a", "b", "c", "x".repeat(3000), "de"]); // an empty write is not parsed
    expect(applied).toEqual(["a", "b", "c", "x".repeat(3000), "mark", "e"]);
    // A write parsed already is not extended: the next one is parsed on its own.
    write("f", true);
    terminal.writes.hurry();
    terminal.writes.pump();
    write("g", true);
    terminal.writes.hurry();
    while (terminal.writes.pump());
    expect(terminal.parsed.slice(-2)).toEqual(["f", "g"]);
  });

  it("reuses a joined piece only once its writes were parsed, skipped or dropped: every screen sees its own bytes", () => {
    // Three screens share the spare pieces. Each logs, in order, the text it parsed and the text a
    // skip covered; a piece handed out again while still queued would show another screen's bytes
    // (or later ones) in place of its own.
    let seed = 7;
    // mulberry32: a linear congruential generator's low bits repeat in short cycles.
    const random = (n: number): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return Math.floor((((x ^ (x >>> 14)) >>> 0) / 2 ** 32) * n);
    };
    const decode = (data: Uint8Array | string): string => (typeof data === "string" ? data : new TextDecoder().decode(data));
    for (let scenario = 0; scenario < 40; scenario++) {
      const seen = ["", "", ""];
      const expected = ["", "", ""];
      const screens = [0, 1, 2].map((t) => {
        const target: ParseTarget = {
          parseWrite: (data) => void (seen[t] += decode(data)),
          skipFlood: (pieces) => {
            if (random(3) > 0) return undefined;
            seen[t] += decode(pieces[0] as Uint8Array);
            return { skipped: true, pieces: 1 };
          },
          pump: () => writes.pump(),
        };
        const writes = new WriteScheduler(target);
        return writes;
      });
      for (let step = 0; step < 400; step++) {
        const t = random(3);
        const writes = screens[t] as WriteScheduler;
        // Mostly writes: a screen holds two pieces or more only after 16 KiB of them.
        const action = random(100);
        if (action < 90) {
          const text = `${t}:${step} ${"x".repeat(random(1800))}\r\n`;
          expected[t] += text;
          writes.write(new TextEncoder().encode(text), undefined, false, true);
        } else if (action < 98) {
          writes.hurry();
          writes.pump(random(2) === 0 ? 1 : 64 * 1024);
        } else {
          writes.dropQueued();
          expected[t] = seen[t] as string;
        }
        expect((expected[t] as string).startsWith(seen[t] as string)).toBe(true);
      }
      screens.forEach((writes, t) => {
        writes.hurry();
        while (writes.pump());
        expect(seen[t]).toBe(expected[t]);
      });
    }
  });

  it("survives a screen that drops its queue while it skips a flood (xterm failed mid-skip)", () => {
    const terminal: FakeTerminal = new FakeTerminal(() => {
      terminal.writes.dropQueued();
      return { skipped: true, pieces: 2 };
    });
    const applied: number[] = [];
    catchUp(terminal, [chunk("one", 5000), chunk("two", 5000), chunk("three", 5000)], applied);
    expect(terminal.writes.busy).toBe(false);
    expect(terminal.writes.backlog).toBe(0);
    expect(applied).toEqual([]);
  });
});
