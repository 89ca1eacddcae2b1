import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError, type ErrorKind } from "../../../src/errors.js";
import { createHmac } from "node:crypto";
import { cursorIdentity, decodeCursor, encodeCursor, serverGeneration, socketTag, type CursorFields } from "../../../src/observe/cursor/codec.js";
import { newInstanceId } from "../../../src/observe/cursor/instance.js";
import { initialStripState, stripEscapes } from "../../../src/observe/raw/strip.js";

const SEED = Number(process.env.FC_SEED ?? 99_173);
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const typical: CursorFields = {
  instance: Uint8Array.of(1, 2, 3, 4, 5, 6),
  server: serverGeneration(48_213, 1_718_000_000),
  pane: 12,
  panePid: 48_290,
  offset: 1_234_567,
  seq: 4_321,
  strip: stripEscapes(new TextEncoder().encode("\r\x1b[1;3"), initialStripState).state,
};

function kindOf(run: () => unknown): ErrorKind | "no error" | "foreign error" {
  try {
    run();
    return "no error";
  } catch (error) {
    return isPanescopeError(error) ? error.kind : "foreign error";
  }
}

describe("cursor codec", () => {
  it("round-trips every field, including a strip state mid-sequence", () => {
    const token = encodeCursor(typical, KEY);
    expect(decodeCursor(token, KEY)).toEqual(typical);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("round-trips arbitrary fields up to 2^53 − 1 and stays under 200 characters", () => {
    const field = fc.oneof(fc.nat(300), fc.nat(), fc.maxSafeNat());
    const strips = fc.constantFrom("", "\r", "\x1b", "\x1b(", "\x1b[4", "\x1b]0", "\x1bP", "\x1bP\x1b", "\r\x1b[");
    const fields = fc.record({
      instance: fc.uint8Array({ minLength: 6, maxLength: 6 }),
      server: fc.nat({ max: 0xffffffff }),
      pane: field,
      panePid: field,
      offset: field,
      seq: field,
      strip: fc.tuple(strips, fc.uint8Array({ maxLength: 3 })).map(
        ([text, tail]) => stripEscapes(Uint8Array.of(...new TextEncoder().encode(text), ...tail), initialStripState).state,
      ),
    });
    fc.assert(
      fc.property(fields, (value) => {
        const token = encodeCursor(value, KEY);
        expect(token.length).toBeLessThan(200);
        expect(decodeCursor(token, KEY)).toEqual(value);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it("is compact: a typical cursor is 39 characters, the largest 62", () => {
    expect(encodeCursor(typical, KEY)).toHaveLength(39);
    const largest = { ...typical, pane: 2 ** 32, panePid: 2 ** 32, offset: 2 ** 53 - 1, seq: 2 ** 53 - 1 };
    expect(encodeCursor(largest, KEY)).toHaveLength(62);
  });

  it("binds the first 6 bytes of the process id and 32 bits of the server's pid and start time", () => {
    const identity = { instance: Uint8Array.of(9, 8, 7, 6, 5, 4, 3, 2), serverPid: 48_213, serverStart: 1_718_000_000 };
    expect(cursorIdentity(identity)).toEqual({ instance: Uint8Array.of(9, 8, 7, 6, 5, 4), server: typical.server });
    expect(serverGeneration(48_213, 1_718_000_001)).not.toBe(typical.server);
    expect(serverGeneration(48_214, 1_718_000_000)).not.toBe(typical.server);
  });

  it("binds 24 bits of the server's socket path (format 3), the same across restarts, and still reads format 2", () => {
    const withSocket = { ...typical, socket: socketTag("/tmp/tmux-1000/default") };
    const token = encodeCursor(withSocket, KEY);
    expect(decodeCursor(token, KEY)).toEqual(withSocket);
    expect(token.length - encodeCursor(typical, KEY).length).toBe(4);
    expect(socketTag("/tmp/tmux-1000/default")).toBe(withSocket.socket);
    expect(socketTag("/tmp/tmux-1000/work")).not.toBe(withSocket.socket);
    const identity = cursorIdentity({ instance: typical.instance, serverPid: 1, serverStart: 2, serverSocket: "/tmp/tmux-1000/default" });
    expect(identity.socket).toBe(withSocket.socket);
    expect(decodeCursor(encodeCursor(typical, KEY), KEY).socket).toBeUndefined(); // format 2: no socket to check
  });

  it("answers a format-1 cursor (earlier panescope versions) with an error that says to omit it", () => {
    // Format 1: version 1, 8-byte instance, varints serverPid serverStart pane panePid offset seq, strip, 16-byte tag.
    const payload = Buffer.from([1, 1, 2, 3, 4, 5, 6, 7, 8, 0xd5, 0xf8, 0x02, 0x80, 0xc7, 0xa8, 0xe6, 0x06, 12, 0xa2, 0xf9, 0x02, 5, 7, 0]);
    const old = Buffer.concat([payload, createHmac("sha256", KEY).update(payload).digest().subarray(0, 16)]).toString("base64url");
    expect(old.length).toBeGreaterThan(50);
    expect(kindOf(() => decodeCursor(old, KEY))).toBe("cursor-malformed");
    expect(() => decodeCursor(old, KEY)).toThrow(/earlier panescope version.*omit `cursor`/);
  });

  it("rejects every single-character change of a token", () => {
    const tokens = [encodeCursor(typical, KEY), encodeCursor({ ...typical, offset: 0, seq: 0, strip: initialStripState }, KEY)];
    for (const token of tokens) {
      for (let position = 0; position < token.length; position++) {
        for (const replacement of [...BASE64URL, "=", ".", " ", "+", "/", "é"]) {
          if (replacement === token[position]) continue;
          const altered = token.slice(0, position) + replacement + token.slice(position + 1);
          expect(kindOf(() => decodeCursor(altered, KEY)), `position ${position} → ${replacement}`).toMatch(
            /^cursor-(malformed|tampered)$/,
          );
        }
      }
    }
  });

  it("calls a token cut short or extended malformed", () => {
    const token = encodeCursor(typical, KEY);
    for (let length = 0; length < token.length; length++) {
      expect(kindOf(() => decodeCursor(token.slice(0, length), KEY))).toBe("cursor-malformed");
    }
    for (const extra of ["A", "AA", "AAA", "AAAA", "_", "=", "==", token]) {
      expect(kindOf(() => decodeCursor(token + extra, KEY))).toBe("cursor-malformed");
    }
  });

  it("says what to do next in both errors", () => {
    const token = encodeCursor(typical, KEY);
    expect(() => decodeCursor("hello", KEY)).toThrow(/omit `cursor` to start watching again/);
    expect(() => decodeCursor(token, OTHER_KEY)).toThrow(/omit `cursor` to start again/);
  });

  it("calls a genuine-looking token signed with another key tampered", () => {
    expect(kindOf(() => decodeCursor(encodeCursor(typical, OTHER_KEY), KEY))).toBe("cursor-tampered");
  });

  it("answers any random input with a typed error, never another throw (10,000 inputs)", () => {
    const token = encodeCursor(typical, KEY);
    const inputs = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 120 }),
      fc.uint8Array({ maxLength: 90 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
      fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from([1, ...bytes]).toString("base64url")),
      fc.tuple(fc.nat(token.length), fc.nat(token.length), fc.string({ maxLength: 4 })).map(
        ([a, b, insert]) => token.slice(0, Math.min(a, b)) + insert + token.slice(Math.max(a, b)),
      ),
    );
    fc.assert(
      fc.property(inputs, (input) => {
        if (input === token) return;
        expect(kindOf(() => decodeCursor(input, KEY))).toMatch(/^cursor-(malformed|tampered)$/);
      }),
      { seed: SEED, numRuns: 10_000 },
    );
  });

  it("rejects fields it cannot represent as an internal error", () => {
    expect(kindOf(() => encodeCursor({ ...typical, offset: 2 ** 53 }, KEY))).toBe("internal");
    expect(kindOf(() => encodeCursor({ ...typical, pane: -1 }, KEY))).toBe("internal");
    expect(kindOf(() => encodeCursor({ ...typical, instance: new Uint8Array(7) }, KEY))).toBe("internal");
    expect(kindOf(() => encodeCursor({ ...typical, server: 2 ** 32 }, KEY))).toBe("internal");
    expect(kindOf(() => encodeCursor(typical, new Uint8Array(8)))).toBe("internal");
  });
});

describe("instance id", () => {
  it("is 8 random bytes, new for each watcher", () => {
    const a = newInstanceId();
    const b = newInstanceId();
    expect([a.length, b.length]).toEqual([8, 8]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });
});
