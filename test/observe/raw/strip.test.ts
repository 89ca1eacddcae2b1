import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../../src/errors.js";
import {
  decodeStripState,
  encodeStripState,
  initialStripState,
  stripEscapes,
  type StripState,
} from "../../../src/observe/raw/strip.js";
import { tmuxPrinted } from "../../support/tmux-input.js";

const SEED = Number(process.env.FC_SEED ?? 7_341_901);
const bytesOf = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...bytesOf(part)] : part)));
const strip = (input: string | Uint8Array, state: StripState = initialStripState) =>
  stripEscapes(typeof input === "string" ? bytesOf(input) : input, state);

/** Strips `bytes` cut at `cuts`, returning the joined text and the final state. */
function stripInChunks(bytes: Uint8Array, cuts: number[]): { text: string; state: StripState } {
  let state = initialStripState;
  let text = "";
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    const result = stripEscapes(bytes.subarray(from, cut), state);
    text += result.text;
    state = result.state;
    from = cut;
  }
  return { text, state };
}

// Synthetic streams shaped like what tmux delivers from real programs.
const STREAMS: Record<string, Uint8Array> = {
  "ls --color": concat(
    "\x1b[0m\x1b[01;34mbin\x1b[0m  \x1b[01;32mbuild.sh\x1b[0m  README.md\r\n",
    "\x1b[38;5;208morange\x1b[39m \x1b[38;2;10;200;30mtruecolour\x1b[m\r\n",
  ),
  "full-screen editor": concat(
    "\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=\x1b[H\x1b[2J\x1b[?25l",
    "\x1b[1;1Hfn main() {\x1b[K\r\n\x1b[2;5Hprintln!(\"hi\");\x1b[K\r\n}\r\n",
    "\x1b[94m~\x1b[0m\r\n\x1b[94m~\x1b[0m\r\n\x1b[24;1H\x1b[1m-- INSERT --\x1b[0m\x1b[24;60H1,1\x1b[2;5H\x1b[?25h",
    "\x1b7\x1b[1;1r\x1b8\x1b(B\x1b)0\x1bM\x1bD\x1b[?1049l\x1b[23;0;0t",
  ),
  "titles, hyperlinks and DCS": concat(
    "\x1b]0;user@host: ~/src\x07$ ",
    "\x1b]2;title with ST\x1b\\",
    "\x1b]8;;https://example.com/\x1b\\link\x1b]8;;\x1b\\ done\n",
    "\x1bP1$r0;1m\x1b\\\x1bPq#0;2;0;0;0#1;2;100;100;0#1~~@@vv@@~~$-\x1b\\",
    "\x1b_Gf=24,s=1,v=1;AAAA\x1b\\\x1b^privacy\x1b\\\x1bXsos\x1b\\after\n",
  ),
  "CJK and emoji": concat(
    "漢字かな交じり文 한국어 ",
    "😀👍🏽 👨‍👩‍👧 e\u0301 \u{10FFFF}\r\n",
    "\x1b[31m赤\x1b[0m\x1b[32m緑\x1b[0m\t税込¥1,000\r\n",
  ),
  "invalid UTF-8": concat(
    "ok ",
    [0xff, 0x20, 0xc0, 0x80, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xe2, 0x82, 0x41, 0x20, 0xf4, 0x90, 0x80, 0x80],
    " \x1b[1m",
    [0xe6, 0x97],
    "\x1b[0m",
    [0xf0, 0x9f, 0x98],
    "\r\n",
    [0xc2, 0x9b, 0x41, 0xc2, 0x85, 0xc2, 0xa0, 0x80, 0xbf],
    "end\n",
  ),
  "progress bar": concat(
    ...Array.from({ length: 20 }, (_, i) => `\r[${"#".repeat(i)}${" ".repeat(19 - i)}] ${i * 5}%\x1b[K`),
    "\r\x1b[K\r\ndone\r\r\n\r\x1b[2K\x1b[1Gspinner |\x08/\x08-\x08\\\x07\r\n",
  ),
  "aborted and nested sequences": concat(
    "a\x1b[12\x18b\x1b]0;t\x1ac\x1b[1\x1b[31md\x1b]0;x\x1b[32me\x1bPq\x1b\x1b]0;y\x07\x18z\x1b\\f",
    "\x1b[1\n2mg\x1b\x7f[1mh\x1b#8i\x1b%Gj\x1b[?2004hk\x1b[>4;2ml\x00\x05\x7fm\r\n",
  ),
};

describe("stripEscapes", () => {
  it("removes CSI sequences whatever their parameters and intermediates", () => {
    expect(strip("\x1b[1;32mhello\x1b[0m \x1b[?25l\x1b[38;2;1;2;3mx\x1b[ q\x1b[>0cy").text).toBe("hello xy");
  });

  it("removes OSC strings ended by BEL or by ST", () => {
    expect(strip("a\x1b]0;title\x07b\x1b]8;;http://x\x1b\\c").text).toBe("abc");
  });

  it("removes DCS, SOS, PM and APC strings up to ST", () => {
    expect(strip("a\x1bPq#0\x07;2\x1b\\b\x1bXs\x1b\\c\x1b^p\x1b\\d\x1b_g\x1b\\e").text).toBe("abcde");
  });

  it("removes two-byte and nF escape sequences", () => {
    expect(strip("a\x1b(Bb\x1b7c\x1b8d\x1b=e\x1b>f\x1bMg\x1b#8h\x1b%Gi").text).toBe("abcdefghi");
  });

  it("drops C0 controls other than newline, tab and carriage return", () => {
    expect(strip("a\x00b\x07c\x08d\x0be\x0cf\x7fg\th\n").text).toBe("abcdefg\th\n");
  });

  it("turns CRLF into LF and keeps a lone CR so overwritten frames stay visible", () => {
    expect(strip("10%\r20%\r\n").text).toBe("10%\r20%\n");
    expect(strip("a\r\r\nb\r\x1b[K\nc").text).toBe("a\nb\nc");
  });

  it("holds a trailing CR until the next chunk shows whether LF follows", () => {
    const first = strip("line\r");
    expect(first.text).toBe("line");
    expect(first.state.cr).toBe(true);
    expect(strip("\nnext", first.state).text).toBe("\nnext");
    expect(strip("over", first.state).text).toBe("\rover");
  });

  it("executes controls inside CSI, aborts on CAN/SUB and restarts on ESC (not in a DCS's data)", () => {
    expect(strip(STREAMS["aborted and nested sequences"] ?? new Uint8Array()).text).toBe(
      "abcdef\nghijklm\n",
    );
  });

  // Each expectation is what tmux 3.2a, 3.3a and 3.7c showed for the same bytes (capture-pane -p).
  it("reads a DCS to its ESC \\ as tmux does: a passthrough's doubled ESCs, CAN and SUB are its data", () => {
    expect(strip("a\x1bPtmux;\x1b\x1b[1mhidden\x1b\\b").text).toBe("ab");
    expect(strip("a\x1bPtmux;\x1b\x1b]52;c;aGk=\x1b\x1b\\\x1b\\b").text).toBe("ab");
    expect(strip("a\x1bPq#0\x18hidden\x1b\\b\x1bPq\x1b[0mhidden\x1b\\c").text).toBe("abc");
  });

  it("removes screen's window name, ESC k … ESC \\, which tmux reads as a string", () => {
    expect(strip("a\x1bkmy-window\x1b\\b").text).toBe("ab");
  });

  it("ignores bytes ≥ 0x80 inside ESC and CSI, as tmux does, instead of printing them", () => {
    expect(strip(concat("a\x1b[1", [0xc3, 0xbc], "2mb")).text).toBe("ab");
    expect(strip("\x1b[漢字abc").text).toBe("bc");
  });

  it("prints what tmux's parser prints, however the bytes are cut and with the state through a cursor", () => {
    const tokens = ["a", "xyz ", "\n", "\r", "\r\n", "\t", "\b", "\x07", "\x7f", "\x00", "\x0b", "\x18", "\x1a", "\x1b", "\x1b[", "\x1b]",
      "\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x1bk", "\x1b\\", "\x1b(", "tmux;", "1;2", ":", "<", "?", "$", " ", "m", "q", "@", "漢", "😀",
      [0xe6], [0x97], [0xf0, 0x9f], [0x80], [0x9b], [0x9c], [0xc2, 0x85], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xef, 0xbf, 0xbe]]
      .map((token) => concat(token));
    const stream = fc.array(fc.constantFrom(...tokens), { maxLength: 40 }).map((parts) => concat(...parts.map((part) => [...part]), "."));
    fc.assert(
      fc.property(stream, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 50, maxLength: 50 }), (bytes, steps) => {
        let state = initialStripState;
        let text = "";
        for (let at = 0, k = 0; at < bytes.length; k++) {
          const step = steps[k % steps.length] ?? 1;
          const result = strip(bytes.subarray(at, at + step), state);
          text += result.text;
          state = decodeStripState(encodeStripState(result.state));
          at += step;
        }
        expect(text).toBe(tmuxPrinted(bytes));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it("replaces invalid UTF-8 exactly as a non-fatal TextDecoder does", () => {
    const bytes = concat([0xff, 0x61, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xe2, 0x82, 0x41, 0xf4, 0x90, 0x80, 0x80, 0xf0, 0x9f, 0x98]);
    const expected = new TextDecoder().decode(bytes);
    const result = strip(bytes);
    expect(result.text + new TextDecoder().decode(Uint8Array.from(result.state.utf8))).toBe(expected);
    expect(result.state.utf8).toEqual([0xf0, 0x9f, 0x98]);
  });

  it("keeps a byte order mark and drops encoded C1 controls", () => {
    expect(strip("\ufeffa\u009b1mb\u0085c\u00a0").text).toBe("\ufeffa1mbc\u00a0");
  });

  it("matches TextDecoder on any text free of controls", () => {
    const text = fc.uint8Array({ maxLength: 200 }).map((bytes) => bytes.filter((b) => b >= 0x20 && b !== 0x7f));
    fc.assert(
      fc.property(text, (bytes) => {
        const result = strip(bytes);
        const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
        const expected = decoder.decode(bytes, { stream: true }).replace(/[\u0080-\u009f]/g, "");
        return result.text === expected;
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  describe.each(Object.entries(STREAMS))("the %s stream", (_name, bytes) => {
    const whole = strip(bytes);

    it("gives the same text and final state however it is cut (1000 seeded chunkings)", () => {
      const cuts = fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: 60 });
      fc.assert(
        fc.property(cuts, (points) => {
          expect(stripInChunks(bytes, points.sort((a, b) => a - b))).toEqual(whole);
        }),
        { seed: SEED, numRuns: 1000 },
      );
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
      expect(stripInChunks(bytes, everyByte)).toEqual(whole);
    });

    it("continues cleanly from any offset given the state there", () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const before = strip(bytes.subarray(0, cut));
        const after = strip(bytes.subarray(cut), before.state);
        expect(before.text + after.text).toBe(whole.text);
      }
    });
  });

  it("yields no fragment when a read starts inside an escape sequence", () => {
    const bytes = bytesOf("\x1b[1;32mhello\x1b]0;a title\x07world");
    const start = strip(bytes.subarray(0, 4));
    expect(strip(bytes.subarray(4), start.state).text).toBe("helloworld");
    const inTitle = strip(bytes.subarray(0, 18));
    expect(strip(bytes.subarray(18), inTitle.state).text).toBe("world");
  });

  it("yields no U+FFFD when a valid character is split across reads", () => {
    const bytes = bytesOf("a😀b漢c");
    for (let cut = 1; cut < bytes.length; cut++) {
      const first = strip(bytes.subarray(0, cut));
      const second = strip(bytes.subarray(cut), first.state);
      expect(first.text + second.text).toBe("a😀b漢c");
      expect(second.text).not.toContain("\ufffd");
    }
  });
});

describe("strip state encoding", () => {
  /** Every state the stripper can reach: each mode and each incomplete UTF-8 prefix, with and without a held CR. */
  function reachableStates(): StripState[] {
    const prefixes: number[][] = [];
    const ranges = (lead: number): [number, number] =>
      lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    for (let lead = 0xc2; lead <= 0xf4; lead++) {
      prefixes.push([lead]);
      if (lead < 0xe0) continue;
      const [lo, hi] = ranges(lead);
      for (let second = lo; second <= hi; second++) {
        prefixes.push([lead, second]);
        if (lead < 0xf0) continue;
        for (let third = 0x80; third <= 0xbf; third++) prefixes.push([lead, second, third]);
      }
    }
    const modeInputs = ["", "\x1b", "\x1b(", "\x1b[1", "\x1b]0;t", "\x1b]0;t\x1b", "\x1b_g", "\x1b_g\x1b"];
    modeInputs.push("\x1bP", "\x1bP1", "\x1bP$", "\x1bPq", "\x1bPq\x1b");
    const states: StripState[] = [];
    for (const cr of ["", "\r"]) {
      for (const input of modeInputs) states.push(strip(cr + input).state);
      for (const prefix of prefixes) states.push(strip(concat(cr, prefix)).state);
    }
    return states;
  }

  it("round-trips every reachable state in at most 5 bytes", () => {
    const states = reachableStates();
    expect(new Set(states.map((state) => state.mode)).size).toBe(13);
    // 13 modes + UTF-8 prefixes: 51 leads, 960 3-byte and 256 4-byte second bytes, 256 × 64 third bytes.
    expect(states.length).toBe(2 * (13 + 51 + 960 + 256 + 256 * 64));
    expect(new Set(states.map((state) => Buffer.from(encodeStripState(state)).toString("hex"))).size).toBe(states.length);
    for (const state of states) {
      const encoded = encodeStripState(state);
      expect(encoded.length).toBeLessThanOrEqual(5);
      const decoded = decodeStripState(encoded);
      if (JSON.stringify(decoded) !== JSON.stringify(state)) expect(decoded).toEqual(state);
    }
  });

  it("reads a cursor's state from before the DCS modes as it was written", () => {
    // Mode in bits 0–2, a held CR in bit 3: what every cursor carried before the DCS modes took bit 6.
    expect(decodeStripState(Uint8Array.of(0x06 | 0x08))).toEqual({ mode: "string", cr: true, utf8: [] });
    expect(encodeStripState({ mode: "dcs-data", cr: false, utf8: [] })).toEqual(Uint8Array.of(0x43));
  });

  it("rejects every byte string that no state encodes to", () => {
    const valid = new Set(reachableStates().map((state) => Buffer.from(encodeStripState(state)).toString("hex")));
    const check = (bytes: Uint8Array) => {
      try {
        const state = decodeStripState(bytes);
        expect(valid.has(Buffer.from(bytes).toString("hex"))).toBe(true);
        expect(encodeStripState(state)).toEqual(bytes);
      } catch (error) {
        if (!isPanescopeError(error, "bad-input")) throw error;
        expect(valid.has(Buffer.from(bytes).toString("hex"))).toBe(false);
      }
    };
    check(new Uint8Array(0));
    for (let a = 0; a < 256; a++) {
      check(Uint8Array.of(a));
      for (let b = 0; b < 256; b++) check(Uint8Array.of(a, b));
    }
    fc.assert(fc.property(fc.uint8Array({ minLength: 3, maxLength: 6 }), (bytes) => check(bytes)), { seed: SEED, numRuns: 5000 });
  });
});
