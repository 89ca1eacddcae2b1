import { describe, expect, it } from "vitest";
import { CastWriter, formatCast, parseCast, parseSize, type Cast } from "../../src/evidence/cast.js";
import { isPanescopeError } from "../../src/errors.js";

function written(run: (writer: CastWriter) => void): string {
  let text = "";
  run(new CastWriter({ version: 2, width: 80, height: 24, timestamp: 1700000000, env: { TERM: "xterm-256color" } }, (line) => (text += line)));
  return text;
}

describe("asciicast v2", () => {
  it("a cast written as events happen parses back to the same header and events", () => {
    const text = written((w) => {
      w.output(0.1, new TextEncoder().encode("hello\r\n"));
      w.resize(0.25, 100, 30);
      w.marker(0.5, "missed: overflow");
      w.output(0.75, "\x1b[1mbold\x1b[0m");
      w.end(1);
    });
    const cast = parseCast(text);
    expect(cast.header).toEqual({ version: 2, width: 80, height: 24, timestamp: 1700000000, env: { TERM: "xterm-256color" } });
    expect(cast.events).toEqual([
      [0.1, "o", "hello\r\n"],
      [0.25, "r", "100x30"],
      [0.5, "m", "missed: overflow"],
      [0.75, "o", "\x1b[1mbold\x1b[0m"],
    ]);
    expect(formatCast(cast)).toBe(text);
  });

  it("a character cut between two chunks is written whole in the second event", () => {
    const bytes = new TextEncoder().encode("a中b");
    const text = written((w) => {
      w.output(0, bytes.slice(0, 2));
      w.output(1, bytes.slice(2));
    });
    expect(parseCast(text).events).toEqual([
      [0, "o", "a"],
      [1, "o", "中b"],
    ]);
  });

  it("a byte order mark the program printed is kept, also first after a drawn screen", () => {
    // TextDecoder drops a leading U+FEFF by default, and each flush (a screen drawn as text) starts it again.
    const text = written((w) => {
      w.output(0, new TextEncoder().encode("\ufeffa"));
      w.output(1, "\x1bc");
      w.output(2, new TextEncoder().encode("\ufeffb"));
    });
    expect(parseCast(text).events).toEqual([
      [0, "o", "\ufeffa"],
      [1, "o", "\x1bc"],
      [2, "o", "\ufeffb"],
    ]);
  });

  it("times are kept to the microsecond and never go backwards", () => {
    const text = written((w) => {
      w.output(2.0000004, "a");
      w.output(1, "b");
    });
    expect(parseCast(text).events.map((e) => e[0])).toEqual([2, 2]);
  });

  it("escape sequences and control bytes survive the JSON round trip", () => {
    const cast: Cast = { header: { version: 2, width: 10, height: 2 }, events: [[0, "o", "\x1b[31m\u0000\"\\\x7f"]] };
    expect(parseCast(formatCast(cast))).toEqual(cast);
  });

  it("a malformed cast is a bad-input error that names the line", () => {
    const cases = ['{"version":1,"width":80,"height":24}', '{"version":2,"width":80,"height":24}\n[0,"x","a"]', "not json", ""];
    for (const text of cases) {
      let error: unknown;
      try {
        parseCast(text);
      } catch (e) {
        error = e;
      }
      expect(isPanescopeError(error, "bad-input")).toBe(true);
      expect(String(error)).toMatch(/line \d/);
    }
  });

  it("a resize event names its size as COLSxROWS", () => {
    expect(parseSize("132x43")).toEqual({ cols: 132, rows: 43 });
    expect(parseSize("132 x 43")).toBeUndefined();
  });
});
