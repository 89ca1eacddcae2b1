// The front's framing of stdin: short lines whole, everything else passed on byte for byte, however
// the stream is cut; a long line is never held.
import { describe, expect, it } from "vitest";
import { FrontLines, MAX_FRONT_LINE_BYTES, type FrontInput } from "../../../src/mcp/engine/lines.js";
import { prng } from "../../support/prng.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** What the engine receives: lines the front did not answer, with their \n, and passed bytes. */
function toEngine(inputs: readonly FrontInput[]): string {
  return inputs.map((input) => (input.kind === "line" ? `${decode(input.bytes)}\n` : decode(input.bytes))).join("");
}

function cut(bytes: Uint8Array, next: () => number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * (next() < 0.2 ? 200_000 : 40));
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

describe("FrontLines", () => {
  it("gives short lines whole and passes on the rest unchanged, however the stream is cut", () => {
    const long = `{"id":9,"x":"${"a".repeat(MAX_FRONT_LINE_BYTES + 10)}"}`;
    const stream = encode(`{"id":1}\n${long}\n{"id":2}\n\n{"id":3,"é":"ü"}\n${"b".repeat(MAX_FRONT_LINE_BYTES)}\n{"id":4}`);
    for (let seed = 1; seed <= 40; seed++) {
      const lines = new FrontLines();
      const inputs = cut(stream, prng(seed)).flatMap((piece) => lines.push(piece));
      const tail = lines.end();
      expect(toEngine(inputs) + decode(tail), `seed ${seed}`).toBe(decode(stream));
      const whole = inputs.filter((input) => input.kind === "line").map((input) => decode(input.bytes));
      expect(whole, `seed ${seed}`).toEqual(['{"id":1}', '{"id":2}', "", '{"id":3,"é":"ü"}', "b".repeat(MAX_FRONT_LINE_BYTES)]);
      expect(decode(tail)).toBe('{"id":4}');
    }
  });

  it("never holds more than a front line of a long one", () => {
    const lines = new FrontLines();
    let passed = 0;
    for (let i = 0; i < 100; i++) for (const input of lines.push(new Uint8Array(64 * 1024).fill(0x61))) passed += input.bytes.length;
    // All but what is held of the line's start was passed on as it came.
    expect(passed).toBeGreaterThanOrEqual(100 * 64 * 1024 - MAX_FRONT_LINE_BYTES);
    expect(lines.end().length).toBeLessThanOrEqual(MAX_FRONT_LINE_BYTES);
  });
});
