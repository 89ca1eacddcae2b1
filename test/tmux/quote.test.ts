// quoteArg / commandLine: any string becomes exactly one tmux argument and never a second command.
// The real-server round trip of the same property lives in test/integration/tmux/client.test.ts.

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { commandLine, commandsLine, quoteArg } from "../../src/tmux/quote.js";
import { isPanescopeError } from "../../src/errors.js";

/** The subset of tmux 3.3a's parser our quoting relies on: bare words and "…" with \\ \" \$ \ooo. */
function unquote(token: string): string {
  if (!token.startsWith('"')) return token;
  expect(token.endsWith('"') && token.length >= 2).toBe(true);
  let out = "";
  const body = token.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    expect(ch === '"' || ch === "$" || ch === "\n" || ch === "~").toBe(false); // never raw: tmux would act on them
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[i + 1] ?? "";
    if (/[0-7]/.test(next)) {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      out += next;
      i += 1;
    }
  }
  return out;
}

describe("quoteArg", () => {
  it("leaves plain words, flags and targets bare", () => {
    for (const word of ["display-message", "-p", "-t", "main:1.2", "pause-after=5", "a_b.c/d", "--"]) expect(quoteArg(word)).toBe(word);
  });

  it("double-quotes anything else, escaping what tmux would expand or end on", () => {
    expect(quoteArg("")).toBe('""');
    expect(quoteArg("%0:continue")).toBe('"%0:continue"');
    expect(quoteArg("a;b")).toBe('"a;b"');
    expect(quoteArg('say "hi" $HOME')).toBe('"say \\"hi\\" \\$HOME"');
    expect(quoteArg("~/x")).toBe('"\\176/x"');
    expect(quoteArg("back\\slash")).toBe('"back\\\\slash"');
    expect(quoteArg("line\nbreak\ttab\u007f")).toBe('"line\\012break\\011tab\\177"');
    expect(quoteArg("#{pane_id} {x}")).toBe('"#{pane_id} {x}"');
    expect(quoteArg("漢字 é")).toBe('"漢字 é"');
  });

  it("refuses NUL and lone surrogates, which tmux cannot carry, with bad-input", () => {
    for (const bad of ["a\0b", "\ud800", "x\udc00"]) {
      expect(() => quoteArg(bad)).toThrow();
      try {
        quoteArg(bad);
      } catch (error) {
        expect(isPanescopeError(error, "bad-input")).toBe(true);
      }
    }
  });

  it("round-trips any well-formed string through tmux's quoting rules (property)", () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom("\\", '"', "'", "$", "~", "#", "{", "}", ";", "\n", "\r", "-", " ", "%", "\u001b"), fc.constantFrom("a", "Z", "9"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 40 });
    fc.assert(
      fc.property(text.filter((s) => !s.includes("\0")), (s) => {
        const quoted = quoteArg(s);
        expect(quoted).not.toMatch(/[\n\r]/);
        expect(unquote(quoted)).toBe(s);
      }),
      { seed: 1234, numRuns: 2000 },
    );
  });
});

describe("commandLine / commandsLine", () => {
  it("quotes each argument and joins several commands with ' ; '", () => {
    expect(commandLine(["refresh-client", "-A", "%3:continue"])).toBe('refresh-client -A "%3:continue"');
    expect(commandsLine([["display-message", "-p", "a;b"], ["list-panes"]])).toBe('display-message -p "a;b" ; list-panes');
  });

  it("refuses an empty command, which tmux would take as detach", () => {
    expect(() => commandLine([])).toThrow();
    expect(() => commandsLine([])).toThrow();
  });
});
