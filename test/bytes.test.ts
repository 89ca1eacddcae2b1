import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { carveBytes, carvedCopy } from "../src/bytes.js";
import { decodeEscapes } from "../src/tmux/protocol.js";

describe("carveBytes", () => {
  it("gives plain Uint8Arrays of the size asked, small and large", () => {
    for (const size of [0, 1, 100, 16 * 1024, 32 * 1024, 32 * 1024 + 1, 300 * 1024]) {
      const bytes = carveBytes(size);
      expect(bytes.length).toBe(size);
      expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
    }
  });

  it("never hands out the same memory twice: every array keeps what was written to it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 70 * 1024 }), { minLength: 1, maxLength: 60 }), (sizes) => {
        const carved = sizes.map((size, i) => carveBytes(size).fill(i % 251));
        carved.forEach((bytes, i) => expect(bytes.every((b) => b === i % 251)).toBe(true));
      }),
      { seed: 11, numRuns: 40 },
    );
  });

  it("carvedCopy copies: a change to either side leaves the other as it was", () => {
    const source = Uint8Array.from([1, 2, 3]);
    const copy = carvedCopy(source);
    source[0] = 9;
    copy[2] = 7;
    expect([...copy]).toEqual([1, 2, 7]);
    expect([...source]).toEqual([9, 2, 3]);
  });
});

describe("decodeEscapes into carved arrays", () => {
  it("each decoded chunk keeps its bytes while later chunks are decoded (no shared scratch)", () => {
    const escape = (data: Uint8Array): Uint8Array => {
      const out: number[] = [];
      for (const b of data) {
        if (b < 0x20 || b === 0x5c) out.push(0x5c, 0x30 + (b >> 6), 0x30 + ((b >> 3) & 7), 0x30 + (b & 7));
        else out.push(b);
      }
      return Uint8Array.from(out);
    };
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 5000 }), { maxLength: 80 }), (chunks) => {
        const decoded = chunks.map((chunk) => decodeEscapes(escape(chunk)));
        decoded.forEach((bytes, i) => expect(bytes).toEqual(chunks[i]));
      }),
      { seed: 5, numRuns: 60 },
    );
  });
});
