// LineFramer: bytes → complete lines, carried across chunks, bounded.

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineFramer, type Frame } from "../../src/tmux/framing.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (frames: Frame[]): string[] => frames.map((f) => (f.kind === "overflow" ? `<overflow ${f.limit}>` : `${f.kind}:${Buffer.from(f.bytes).toString()}`));

describe("LineFramer", () => {
  it("splits a chunk on newlines and carries the unterminated rest to the next chunk", () => {
    const framer = new LineFramer();
    expect(text(framer.push(bytes("one\ntw")))).toEqual(["line:one"]);
    expect(text(framer.push(bytes("o\n\nthr")))).toEqual(["line:two", "line:"]);
    expect(text(framer.push(bytes("ee\n")))).toEqual(["line:three"]);
  });

  it("reports bytes left without a newline at the end of the stream", () => {
    const framer = new LineFramer();
    framer.push(bytes("done\nhalf"));
    expect(text(framer.end())).toEqual(["partial:half"]);
    expect(framer.end()).toEqual([]);
  });

  it("turns a line over the bound into one overflow and resumes at the next newline", () => {
    const framer = new LineFramer({ maxLineBytes: 8 });
    const frames = [...framer.push(bytes("ok\n0123")), ...framer.push(bytes("456789abc")), ...framer.push(bytes("def\nafter\n"))];
    expect(text(frames)).toEqual(["line:ok", "<overflow 8>", "line:after"]);
  });

  it("accepts a line exactly at the bound and rejects one byte more", () => {
    const framer = new LineFramer({ maxLineBytes: 4 });
    expect(text(framer.push(bytes("abcd\nabcde\nz\n")))).toEqual(["line:abcd", "<overflow 4>", "line:z"]);
  });

  it("copies carried bytes, so a caller reusing its buffer cannot corrupt a line", () => {
    const framer = new LineFramer();
    const buffer = bytes("abc");
    framer.push(buffer);
    buffer.fill(0x78);
    expect(text(framer.push(bytes("d\n")))).toEqual(["line:abcd"]);
  });

  it("gives the same lines however the input is cut", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 20 }), (input, cuts) => {
        const whole = new LineFramer({ maxLineBytes: 50 });
        const expected = [...whole.push(input), ...whole.end()];
        const pieces = new LineFramer({ maxLineBytes: 50 });
        const got: Frame[] = [];
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          got.push(...pieces.push(input.subarray(at, Math.max(at, cut))));
          at = Math.max(at, cut);
        }
        got.push(...pieces.push(input.subarray(at)), ...pieces.end());
        expect(got).toEqual(expected);
      }),
      { seed: 20240601, numRuns: 500 },
    );
  });
});
