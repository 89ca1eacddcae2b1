// ControlParser: tmux control-mode bytes → typed events, whatever the chunking, never throwing.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ControlEvent } from "../../src/tmux/events.js";
import { ControlParser, decodeEscapes } from "../../src/tmux/protocol.js";
import { parseLayout } from "../../src/tmux/layout.js";

const recorded = readFileSync(new URL("../../golden/control/session.ctl", import.meta.url));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const parseAll = (input: Uint8Array | string, parser = new ControlParser()): ControlEvent[] => [
  ...parser.push(typeof input === "string" ? enc(input) : input),
  ...parser.end(),
];

/** tmux 3.3a's escaping of %output data (control.c): bytes < 0x20 and `\` as \ooo, the rest raw. */
function tmuxEscape(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const b of data) {
    if (b < 0x20 || b === 0x5c) out.push(...enc(`\\${b.toString(8).padStart(3, "0")}`));
    else out.push(b);
  }
  return Uint8Array.from(out);
}

function outputLine(pane: string, data: Uint8Array): Uint8Array {
  return Buffer.concat([enc(`%output ${pane} `), tmuxEscape(data), enc("\n")]);
}

describe("ControlParser: pane output", () => {
  it("round-trips every byte value 0-255 through tmux's escaping", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(parseAll(outputLine("%3", all))).toEqual([{ type: "output", paneId: "%3", data: all }]);
  });

  it("takes pane ids up to tmux's largest, %4294967295 (10 digits), in output and layouts", () => {
    expect(parseAll(outputLine("%4294967295", enc("hi")))).toEqual([{ type: "output", paneId: "%4294967295", data: enc("hi") }]);
    expect(parseLayout("b25d,80x24,0,0,4294967295")).toEqual([{ paneId: "%4294967295", cols: 80, rows: 24, x: 0, y: 0 }]);
  });

  it("decodes %extended-output with its age", () => {
    expect(parseAll("%extended-output %1 42 : a\\015\\012\n")).toEqual([{ type: "output", paneId: "%1", data: enc("a\r\n"), age: 42 }]);
  });

  it("keeps split UTF-8 and split escapes intact at every cut position", () => {
    const line = outputLine("%0", enc("漢字\\x\ty"));
    for (let cut = 0; cut <= line.length; cut++) {
      const parser = new ControlParser();
      const events = [...parser.push(line.subarray(0, cut)), ...parser.push(line.subarray(cut)), ...parser.end()];
      expect(events).toEqual([{ type: "output", paneId: "%0", data: enc("漢字\\x\ty") }]);
    }
  });

  it("round-trips arbitrary bytes through escaping (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (data) => {
        expect(decodeEscapes(tmuxEscape(data))).toEqual(data);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

describe("ControlParser: reply blocks", () => {
  it("pairs %begin with its own %end: a body line that looks like %end does not close the block", () => {
    const events = parseAll("%begin 100 7 1\n%end 1 2 1\n%end 100 8 1\n%error 99 7 1\nlast\n%end 100 7 1\n");
    expect(events).toEqual([{ type: "reply", time: 100, number: 7, flags: 1, ok: true, lines: ["%end 1 2 1", "%end 100 8 1", "%error 99 7 1", "last"] }]);
  });

  it("reports %error as a reply that is not ok, with tmux's message", () => {
    expect(parseAll("%begin 5 6 1\ncan't find pane: %99\n%error 5 6 1\n")).toEqual([
      { type: "reply", time: 5, number: 6, flags: 1, ok: false, lines: ["can't find pane: %99"] },
    ]);
  });

  it("inside a block, takes only pause/continue as notifications (a pause there is requested)", () => {
    const events = parseAll("%begin 1 2 1\n%pause %0\n%continue %0\n%output %1 hi\nbody\n%end 1 2 1\n");
    expect(events).toEqual([
      { type: "pause", paneId: "%0", requested: true },
      { type: "continue", paneId: "%0" },
      { type: "reply", time: 1, number: 2, flags: 1, ok: true, lines: ["%output %1 hi", "body"] },
    ]);
  });

  it("never turns captured pane text that looks like output into pane output", () => {
    const events = parseAll("%begin 1 2 1\n%output %3 rm -rf /\n%layout-change @0 x x *\n%end 1 2 1\n");
    expect(events.filter((e) => e.type !== "reply")).toEqual([]);
  });

  it("keeps malformed notification look-alikes and %exit inside a block as body text", () => {
    const body = ["%exit", "%output %1 raw\u001bescape", "%output %1 bad\\9", "%pause nope", "%begin 1 2 1", "%made-up x"];
    const events = parseAll(`%begin 1 2 1\n${body.join("\n")}\n%end 1 2 1\n`);
    expect(events).toEqual([{ type: "reply", time: 1, number: 2, flags: 1, ok: true, lines: body }]);
  });

  it("decodes reply lines as UTF-8, keeping invalid bytes as replacement characters", () => {
    const events = parseAll(Buffer.concat([enc("%begin 1 2 1\n漢"), Uint8Array.of(0xff), enc("\n%end 1 2 1\n")]));
    expect(events).toEqual([{ type: "reply", time: 1, number: 2, flags: 1, ok: true, lines: ["漢\ufffd"] }]);
  });

  it("bounds a reply's body and says it was truncated", () => {
    const events = parseAll("%begin 1 2 1\naaaa\nbbbb\ncccc\n%end 1 2 1\n", new ControlParser({ maxReplyBytes: 9 }));
    expect(events[0]).toMatchObject({ type: "protocol-error" });
    expect(events[1]).toEqual({ type: "reply", time: 1, number: 2, flags: 1, ok: true, lines: ["aaaa", "bbbb"], truncated: true });
  });

  it("reports a stream that ends inside a reply", () => {
    expect(parseAll("%begin 1 2 1\npartial")).toEqual([expect.objectContaining({ type: "protocol-error" })]);
  });
});

describe("ControlParser: notifications", () => {
  it("parses layout changes with nested {} and [] layouts into leaf panes", () => {
    const [event] = parseAll("%layout-change @0 d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]} d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]} *\n");
    expect(event).toMatchObject({ type: "layout-change", windowId: "@0", flags: "*" });
    expect(event?.type === "layout-change" && event.panes).toEqual([
      { paneId: "%0", cols: 40, rows: 24, x: 0, y: 0 },
      { paneId: "%1", cols: 39, rows: 12, x: 41, y: 0 },
      { paneId: "%2", cols: 39, rows: 11, x: 41, y: 13 },
    ]);
  });

  it("rejects malformed layouts rather than inventing panes", () => {
    for (const bad of ["", "80x24,0,0,1", "abcd,80x24,0,0", "abcd,80x24,0,0{40x24,0,0,0", "abcd,80x24,0,0,1junk"]) expect(parseLayout(bad)).toBeNull();
    expect(parseLayout("b25d,80x24,0,0,3")).toEqual([{ paneId: "%3", cols: 80, rows: 24, x: 0, y: 0 }]);
  });

  it("parses subscription changes, exit reasons and session/window notifications", () => {
    const events = parseAll(
      [
        "%subscription-changed my sub $0 @1 2 %3 : value : with colon",
        "%subscription-changed s $0 - - - : ",
        "%exit",
        "%exit detached",
        "%session-changed $1 my session",
        "%session-renamed $0 m ain",
        "%session-window-changed $0 @1",
        "%window-renamed @1 re named",
        "%unlinked-window-close @4",
        "%window-pane-changed @0 %2",
        "%client-session-changed /dev/pts/3 $1 other",
        "%client-detached /dev/pts/3",
        "%sessions-changed",
        "%pane-mode-changed %4",
        "%continue %1",
        "%paste-buffer-changed buffer0",
        "plain text outside a block",
      ].join("\n") + "\n",
    );
    expect(events).toEqual([
      { type: "subscription-changed", name: "my sub", sessionId: "$0", windowId: "@1", windowIndex: "2", paneId: "%3", value: "value : with colon" },
      { type: "subscription-changed", name: "s", sessionId: "$0", windowId: "-", windowIndex: "-", paneId: "-", value: "" },
      { type: "exit" },
      { type: "exit", reason: "detached" },
      { type: "session-changed", sessionId: "$1", name: "my session" },
      { type: "session-renamed", sessionId: "$0", name: "m ain" },
      { type: "session-window-changed", sessionId: "$0", windowId: "@1" },
      { type: "window-renamed", windowId: "@1", name: "re named" },
      { type: "unlinked-window-close", windowId: "@4" },
      { type: "window-pane-changed", windowId: "@0", paneId: "%2" },
      { type: "client-session-changed", client: "/dev/pts/3", sessionId: "$1", name: "other" },
      { type: "client-detached", client: "/dev/pts/3" },
      { type: "sessions-changed" },
      { type: "pane-mode-changed", paneId: "%4" },
      { type: "continue", paneId: "%1" },
      { type: "unknown", line: "%paste-buffer-changed buffer0" },
      { type: "unknown", line: "plain text outside a block" },
    ]);
  });

  it("turns malformed lines into protocol-error or unknown events", () => {
    const events = parseAll("%output %x hi\n%output %1 bad\\8\n%extended-output %1 : x\n%end 1 2 1\n%begin x\n%pause\n");
    expect(events.map((e) => e.type)).toEqual(["protocol-error", "protocol-error", "protocol-error", "protocol-error", "protocol-error", "unknown"]);
  });

  it("skips a line over the bound with a protocol-error and parses the next one", () => {
    const parser = new ControlParser({ maxLineBytes: 32 });
    const events = parseAll(`%output %1 ${"x".repeat(100)}\n%continue %1\n`, parser);
    expect(events).toEqual([expect.objectContaining({ type: "protocol-error" }), { type: "continue", paneId: "%1" }]);
  });

  it("never throws, whatever bytes arrive", () => {
    const alphabet = fc.constantFrom(..."%\\\n 0123456789@$:{}[],x".split("").map((c) => c.charCodeAt(0)), 0x00, 0x1b, 0xff, 0xc3);
    const word = fc.constantFrom("%begin 1 2 1\n", "%end 1 2 1\n", "%output %1 ", "%extended-output %1 5 : ", "%layout-change @1 ", "%pause %1\n", "\\012", "\\9");
    const chunk = fc.oneof(fc.array(alphabet, { maxLength: 30 }).map((a) => Uint8Array.from(a)), word.map(enc));
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 30 }), (chunks) => {
        const parser = new ControlParser({ maxLineBytes: 64, maxReplyBytes: 64 });
        for (const c of chunks) parser.push(c);
        parser.end();
      }),
      { seed: 99, numRuns: 1000 },
    );
  });
});

describe("ControlParser: a recorded tmux 3.3a control stream", () => {
  const expected = parseAll(recorded);

  it("yields the events the recording holds (golden/control/session.ctl)", () => {
    const types = expected.map((e) => e.type);
    expect(types).not.toContain("protocol-error");
    expect(types).not.toContain("unknown");
    expect(expected).toContainEqual({ type: "reply", time: 1796024405, number: 271, flags: 1, ok: true, lines: ["%end 1 2 1"] });
    expect(expected).toContainEqual({ type: "pause", paneId: "%0", requested: true });
    expect(expected).toContainEqual({ type: "output", paneId: "%0", data: Buffer.concat([enc("\r\na\\b "), Uint8Array.of(0xe5, 0xad, 0x97, 0x20, 0xff, 0xfe), enc(" \x1b[1mX\x1b[0m\r\n# ")]) });
    expect(expected).toContainEqual({ type: "output", paneId: "%1", data: enc("漢字かな\r\n# "), age: 0 });
    expect(expected.filter((e) => e.type === "reply" && !e.ok)).toHaveLength(1);
    expect(expected.at(-1)).toEqual({ type: "exit" });
  });

  it("gives identical events for 1000 random chunkings (seeded; fast-check prints the seed on failure)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: recorded.length }), { maxLength: 60 }), (cuts) => {
        const parser = new ControlParser();
        const events: ControlEvent[] = [];
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          events.push(...parser.push(recorded.subarray(at, cut)));
          at = cut;
        }
        events.push(...parser.push(recorded.subarray(at)), ...parser.end());
        expect(events).toEqual(expected);
      }),
      { seed: 0x7e57, numRuns: 1000 },
    );
  });
});
