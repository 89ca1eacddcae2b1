import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../../src/errors.js";
import { BLOCK_SIZE, ByteRing } from "../../../src/observe/raw/ring.js";

const SEED = Number(process.env.FC_SEED ?? 20240611);

/** Bytes whose value encodes their absolute offset, so any misplaced byte shows. */
function stream(from: number, length: number): Uint8Array {
  if (length > PATTERN.length - 251) return Uint8Array.from({ length }, (_, index) => (from + index) % 251);
  return PATTERN.slice(from % 251, (from % 251) + length);
}
/** Fast byte comparison (vitest's deep equality walks big arrays element by element). */
function expectBytes(actual: Uint8Array, expected: Uint8Array): void {
  if (!Buffer.from(actual).equals(Buffer.from(expected))) expect(actual).toEqual(expected);
}
const PATTERN = Uint8Array.from({ length: 8 * BLOCK_SIZE }, (_, index) => index % 251);

describe("ByteRing", () => {
  it("numbers bytes by absolute offset from 0", () => {
    const ring = new ByteRing(100);
    expect([ring.start, ring.end]).toEqual([0, 0]);
    ring.append(stream(0, 10));
    ring.append(stream(10, 5));
    expect([ring.start, ring.end]).toEqual([0, 15]);
    expect(ring.read(3, 8)).toEqual({ bytes: stream(3, 5), from: 3, missed: 0 });
    expect(ring.read(12).bytes).toEqual(stream(12, 3));
    expect(ring.read(15)).toEqual({ bytes: new Uint8Array(0), from: 15, missed: 0 });
  });

  it("evicts the oldest bytes past capacity and counts exactly what a reader missed", () => {
    const ring = new ByteRing(10);
    ring.append(stream(0, 7));
    ring.append(stream(7, 7));
    expect([ring.start, ring.end]).toEqual([4, 14]);
    expect(ring.read(1)).toEqual({ bytes: stream(4, 10), from: 4, missed: 3 });
    expect(ring.read(0, 6)).toEqual({ bytes: stream(4, 2), from: 4, missed: 4 });
    expect(ring.read(0, 3)).toEqual({ bytes: new Uint8Array(0), from: 3, missed: 3 });
  });

  it("keeps the tail of a chunk larger than its capacity", () => {
    const ring = new ByteRing(1000);
    ring.append(stream(0, 10));
    ring.append(stream(10, 5000));
    expect([ring.start, ring.end]).toEqual([4010, 5010]);
    expect(ring.read(0)).toEqual({ bytes: stream(4010, 1000), from: 4010, missed: 4010 });
  });

  it("spans block boundaries in appends and reads", () => {
    const ring = new ByteRing(4 * BLOCK_SIZE);
    ring.append(stream(0, BLOCK_SIZE - 3));
    ring.append(stream(BLOCK_SIZE - 3, 2 * BLOCK_SIZE + 10));
    expect(ring.blockCount).toBe(4); // offsets 0 … 3 blocks + 7
    expectBytes(ring.read(BLOCK_SIZE - 5, 2 * BLOCK_SIZE + 5).bytes, stream(BLOCK_SIZE - 5, BLOCK_SIZE + 10));
  });

  it("costs memory in proportion to what it holds, not to its capacity", () => {
    const idle = Array.from({ length: 100 }, () => new ByteRing());
    for (const ring of idle) ring.append(new TextEncoder().encode("$ "));
    const total = idle.reduce((sum, ring) => sum + ring.allocatedBytes, 0);
    expect(total).toBeLessThanOrEqual(100 * 1024);
  });

  it("frees evicted blocks, so a busy pane stays near its capacity", () => {
    const ring = new ByteRing(256 * 1024);
    for (let i = 0; i < 200; i++) ring.append(stream(i * 10_000, 10_000));
    expect(ring.end).toBe(2_000_000);
    expect(ring.blockCount).toBeLessThanOrEqual(256 / 64 + 1);
    // The blocks the capacity spans (unaligned: one more), and one evicted block kept for reuse.
    expect(ring.allocatedBytes).toBeLessThanOrEqual(256 * 1024 + 2 * BLOCK_SIZE);
    expectBytes(ring.read(ring.start).bytes, stream(ring.start, 256 * 1024));
  });

  it("rejects a read from the future as bad input", () => {
    const ring = new ByteRing(10);
    ring.append(stream(0, 5));
    expect(() => ring.read(6)).toThrowError(expect.objectContaining({ kind: "bad-input" }));
    expect(() => ring.read(0, 6)).toThrowError(expect.objectContaining({ kind: "bad-input" }));
    expect(() => ring.read(3, 2)).toThrowError(expect.objectContaining({ kind: "bad-input" }));
    expect(() => ring.read(-1)).toThrowError(expect.objectContaining({ kind: "bad-input" }));
    expect(() => ring.read(1.5)).toThrowError(expect.objectContaining({ kind: "bad-input" }));
  });

  it("agrees with a simple model over random appends and reads", () => {
    type Op = { kind: "append"; length: number } | { kind: "read"; a: number; b: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), length: fc.oneof(fc.nat(300), fc.nat(3 * BLOCK_SIZE)) }),
      fc.record({ kind: fc.constant("read" as const), a: fc.double({ min: 0, max: 1, noNaN: true }), b: fc.double({ min: 0, max: 1, noNaN: true }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 * BLOCK_SIZE }), fc.array(op, { maxLength: 40 }), (capacity, ops) => {
        const ring = new ByteRing(capacity);
        let end = 0;
        for (const step of ops) {
          if (step.kind === "append") {
            ring.append(stream(end, step.length));
            end += step.length;
            expect(ring.end).toBe(end);
            expect(ring.start).toBe(Math.max(0, end - capacity));
            expect(ring.allocatedBytes).toBeLessThanOrEqual(capacity + 3 * BLOCK_SIZE);
          } else {
            const [lo, hi] = [Math.min(step.a, step.b), Math.max(step.a, step.b)];
            const from = Math.floor(lo * end);
            const to = Math.floor(hi * end);
            const start = Math.max(0, end - capacity);
            const effective = Math.min(Math.max(from, start), to);
            const read = ring.read(from, to);
            expect({ from: read.from, missed: read.missed }).toEqual({ from: effective, missed: effective - from });
            expectBytes(read.bytes, stream(effective, to - effective));
          }
        }
        try {
          ring.read(end + 1);
          return false;
        } catch (error) {
          return isPanescopeError(error, "bad-input");
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
