// The output gate: bytes wait until tmux confirmed who wrote them, and leave in order, exactly up to
// what a confirmation covers.
import { describe, expect, it } from "vitest";
import { OutputGate } from "../../../src/watch/confirm/gate.js";

const bytes = (text: string): Uint8Array => Buffer.from(text);
const text = (chunks: Uint8Array[]): string => chunks.map((c) => Buffer.from(c).toString()).join("");

describe("OutputGate", () => {
  it("a confirmation releases exactly the chunks received before it was asked, in order", () => {
    const gate = new OutputGate();
    gate.hold(bytes("one "));
    gate.hold(bytes("two "));
    const asked = gate.received;
    gate.hold(bytes("three"));
    const out: Uint8Array[] = [];
    gate.release(asked, (c) => out.push(c));
    expect(text(out)).toBe("one two ");
    expect(gate.held).toBe(5);
    gate.release(gate.received, (c) => out.push(c));
    expect(text(out)).toBe("one two three");
    expect(gate.held).toBe(0);
  });

  it("an answer to an older question releases nothing twice, and empty chunks are not held", () => {
    const gate = new OutputGate();
    gate.hold(bytes("a"));
    const first = gate.received;
    gate.hold(new Uint8Array(0));
    gate.hold(bytes("b"));
    const out: Uint8Array[] = [];
    gate.release(gate.received, (c) => out.push(c));
    gate.release(first, (c) => out.push(c));
    expect(text(out)).toBe("ab");
    expect(gate.received).toBe(2);
  });

  it("takeAll hands over what is held (a capture covers it) and later confirmations skip it", () => {
    const gate = new OutputGate();
    gate.hold(bytes("before "));
    const asked = gate.received;
    expect(text(gate.takeAll())).toBe("before ");
    gate.hold(bytes("after"));
    const out: Uint8Array[] = [];
    gate.release(asked, (c) => out.push(c));
    expect(out).toEqual([]);
    gate.release(gate.received, (c) => out.push(c));
    expect(text(out)).toBe("after");
  });

  it("a long stream held and released in pieces comes out whole and in order", () => {
    const gate = new OutputGate();
    const out: Uint8Array[] = [];
    let expected = "";
    for (let i = 0; i < 5000; i++) {
      const chunk = `${i},`;
      expected += chunk;
      gate.hold(bytes(chunk));
      if (i % 7 === 0) gate.release(gate.received - 3, (c) => out.push(c));
    }
    gate.release(gate.received, (c) => out.push(c));
    expect(text(out)).toBe(expected);
  });
});
