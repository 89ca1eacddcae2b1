// The stdio line framer: the same lines however the bytes are cut, oversized lines skipped with
// bounded memory (their ends kept), UTF-8 split across chunks, \r\n, blank lines, a partial end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KEPT_BYTES, StdioFramer, type Framed } from "../../src/mcp/stdio-framer.js";

const LIMIT = 4096;

function frameAll(stream: Uint8Array, cuts: number[], limit = LIMIT): { events: Framed[]; maxPending: number; dropped: number } {
  const framer = new StdioFramer(limit);
  const events: Framed[] = [];
  let maxPending = 0;
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < stream.length)].sort((a, b) => a - b).concat(stream.length)) {
    events.push(...framer.push(stream.subarray(from, cut)));
    maxPending = Math.max(maxPending, framer.pending);
    from = cut;
  }
  return { events, maxPending, dropped: framer.end() };
}

const enc = (s: string) => new TextEncoder().encode(s);

describe("StdioFramer", () => {
  it("gives complete lines without \\n or \\r\\n, skips blank ones, and reports an unfinished end", () => {
    const { events, dropped } = frameAll(enc('{"a":1}\r\n\n  \n{"b":"é"}\n{"partial'), []);
    expect(events).toEqual([
      { kind: "line", text: '{"a":1}' },
      { kind: "line", text: '{"b":"é"}' },
    ]);
    expect(dropped).toBe(9);
  });

  it("skips a line over the limit, keeping its first and last bytes, and goes on with the next", () => {
    const big = `{"method":"x","params":"${"y".repeat(10_000)}","id":7}`;
    const { events, maxPending } = frameAll(enc(`${big}\n{"ok":true}\n`), [100, 5000, 9000]);
    expect(events).toEqual([
      { kind: "oversized", bytes: big.length, head: big.slice(0, KEPT_BYTES), tail: big.slice(-KEPT_BYTES) },
      { kind: "line", text: '{"ok":true}' },
    ]);
    expect(maxPending).toBeLessThanOrEqual(LIMIT + 2 * KEPT_BYTES);
  });

  it("a line of exactly the limit is a line; one byte more is skipped", () => {
    expect(frameAll(enc(`${"a".repeat(LIMIT)}\n`), [1]).events).toEqual([{ kind: "line", text: "a".repeat(LIMIT) }]);
    expect(frameAll(enc(`${"a".repeat(LIMIT + 1)}\n`), [LIMIT]).events[0]).toMatchObject({ kind: "oversized", bytes: LIMIT + 1 });
  });

  it("memory stays bounded while a 20 MB line streams through in 64 KiB chunks", () => {
    const framer = new StdioFramer(LIMIT);
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let maxPending = 0;
    for (let i = 0; i < 320; i++) {
      expect(framer.push(chunk)).toEqual([]);
      maxPending = Math.max(maxPending, framer.pending);
    }
    expect(framer.push(enc("}\n"))).toEqual([expect.objectContaining({ kind: "oversized", bytes: 320 * 64 * 1024 + 1 })]);
    expect(maxPending).toBeLessThanOrEqual(2 * KEPT_BYTES);
  });

  it("the same lines and skips however the stream is cut (seeded)", () => {
    const line = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 60 }).map((s) => JSON.stringify({ s })),
      fc.integer({ min: LIMIT - 2, max: LIMIT * 3 }).map((n) => `"${"é".repeat(Math.floor(n / 2))}"`),
      fc.constant(""),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), (lines, cuts, crlf) => {
        const stream = enc(lines.map((l) => `${l}${crlf ? "\r\n" : "\n"}`).join(""));
        const whole = frameAll(stream, []);
        const cut = frameAll(stream, cuts.map((c) => c % (stream.length + 1)));
        expect(cut.events).toEqual(whole.events);
        expect(cut.maxPending).toBeLessThanOrEqual(LIMIT + 2 * KEPT_BYTES);
        const expected = lines.filter((l) => l.trim() !== "").map((l) => (enc(l).length + (crlf ? 1 : 0) > LIMIT ? "oversized" : l));
        expect(whole.events.map((e) => (e.kind === "line" ? e.text : "oversized"))).toEqual(expected);
      }),
      { seed: 20_251_101, numRuns: 300 },
    );
  });
});
