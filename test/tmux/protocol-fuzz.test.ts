// The control-mode parser under 10,000 random inputs, each cut at random: it never throws, gives
// identical events for identical bytes however they are cut, and keeps its memory bounded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ControlEvent } from "../../src/tmux/events.js";
import { ControlParser } from "../../src/tmux/protocol.js";
import { retainedBytes } from "../support/heap.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

// Pieces that make the parser's states likely: block framing, notifications, escapes, UTF-8 cut
// mid-character, over-long lines; plus arbitrary bytes.
const piece = fc.oneof(
  fc.constantFrom(
    "%begin 1 2 1\n", "%end 1 2 1\n", "%error 1 2 1\n", "%begin 9 9 0\n", "%end 9 9 0\n",
    "%output %1 ", "%extended-output %2 17 : ", "%pause %1\n", "%continue %1\n", "%exit\n", "%exit too far behind\n",
    "%layout-change @1 b25d,80x24,0,0,0 b25d,80x24,0,0,0 *\n", "%layout-change @1 {bad\n",
    "%subscription-changed s $0 @1 0 %1 : 1 42\n", "%window-close @3\n", "%unlinked-window-close @4\n",
    "\\012", "\\134", "\\9", "\\", "\n", "\r\n", "\x1b[31m", "漢字", "\xe6", "%", " ",
  ).map(enc),
  fc.uint8Array({ maxLength: 40 }),
  fc.integer({ min: 0, max: 300 }).map((n) => enc("x".repeat(n))),
);

function parse(chunks: Uint8Array[]): ControlEvent[] {
  const parser = new ControlParser({ maxLineBytes: 256, maxReplyBytes: 1024 });
  const events: ControlEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return events;
}

function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(at, point));
    at = point;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

describe("ControlParser fuzz", () => {
  it("10,000 random inputs: no throw, and the same events for two random cuttings of the same bytes (seeded)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 20 }), (pieces, cutsA, cutsB) => {
        const bytes = Uint8Array.from(pieces.flatMap((p) => [...p]));
        const whole = parse([bytes]);
        expect(parse(cut(bytes, cutsA))).toEqual(whole);
        expect(parse(cut(bytes, cutsB))).toEqual(whole);
      }),
      { seed: 0x10000, numRuns: 10_000 },
    );
  });

  it("keeps memory bounded when a line or a reply never ends (64 MiB pushed, bounds 1 MiB)", () => {
    const parser = new ControlParser({ maxLineBytes: 1 << 20, maxReplyBytes: 1 << 20 });
    const junk = new Uint8Array(1 << 20).fill(0x61);
    const line = Uint8Array.from([...enc("x".repeat(1000)), 0x0a]);
    const block = new Uint8Array(line.length * 1000);
    for (let i = 0; i < 1000; i++) block.set(line, i * line.length);
    const before = retainedBytes();
    let errors = 0;
    for (let i = 0; i < 32; i++) errors += parser.push(junk).filter((e) => e.type === "protocol-error").length;
    parser.push(enc("\n%begin 1 1 1\n"));
    for (let i = 0; i < 32; i++) parser.push(block);
    const after = retainedBytes();
    expect(errors).toBeGreaterThan(0);
    expect(after - before).toBeLessThan(8 * 1024 * 1024);
    const [reply] = parser.push(enc("%end 1 1 1\n"));
    expect(reply).toMatchObject({ type: "reply", truncated: true });
  });
});
