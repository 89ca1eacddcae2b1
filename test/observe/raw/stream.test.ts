// The raw view: text since an offset, continued across reads by the stripper state, gaps counted.
import { describe, expect, it } from "vitest";
import { RawStream } from "../../../src/observe/raw/stream.js";
import { initialStripState } from "../../../src/observe/raw/strip.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("RawStream", () => {
  it("continues a read that ended inside an escape sequence without a fragment", () => {
    const raw = new RawStream(undefined, 100);
    raw.append(bytes("hi \x1b[1;3"));
    const first = raw.since(100, initialStripState, raw.end);
    raw.append(bytes("2mthere"));
    const second = raw.since(raw.end - 7, first.state, raw.end);
    expect(first.text + second.text).toBe("hi there");
    expect(second.bytes).toBe(7);
  });

  it("counts evicted bytes exactly and starts the stripper afresh after the gap", () => {
    const raw = new RawStream(64 * 1024);
    raw.append(new Uint8Array(100 * 1024).fill(0x61));
    const read = raw.since(0, initialStripState, raw.end);
    expect(read.missed).toBe(36 * 1024);
    expect(read.bytes).toBe(64 * 1024);
  });

  it("knows the stripper state at any end without a reader having read there", () => {
    const raw = new RawStream(undefined);
    raw.append(bytes("x\x1b]0;title"));
    expect(raw.stateAt(raw.end).mode).toBe("osc");
    raw.append(bytes("\x07y"));
    expect(raw.stateAt(raw.end).mode).toBe("ground");
  });
});
