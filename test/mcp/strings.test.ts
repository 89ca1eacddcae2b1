// Strings handed to tmux: NUL and lone surrogates are bad input with a position and advice.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { requireSendable } from "../../src/mcp/strings.js";

function refusal(value: string): string {
  try {
    requireSendable("text", value, "press C-Space");
  } catch (error) {
    expect(isPanescopeError(error, "bad-input")).toBe(true);
    return (error as Error).message;
  }
  return "accepted";
}

describe("requireSendable", () => {
  it("accepts ordinary text, emoji (surrogate pairs) and every other control character", () => {
    for (const ok of ["", "ls -l\n", "😀 done", "\u0001\u001b[A\u007f", "中文"]) expect(refusal(ok), JSON.stringify(ok)).toBe("accepted");
  });
  it("refuses a NUL, naming where it is and what to do instead", () => {
    expect(refusal("ab\0c")).toBe("text contains a NUL character (U+0000) at index 2, which tmux cannot receive in an argument: press C-Space");
  });
  it("refuses a lone high or low surrogate, but not a pair", () => {
    expect(refusal("x\uD83D")).toMatch(/lone UTF-16 surrogate \(U\+D83D\) at index 1/);
    expect(refusal("\uDE00y")).toMatch(/lone UTF-16 surrogate \(U\+DE00\) at index 0/);
    expect(refusal("\uDE00\uD83D")).toMatch(/U\+DE00\) at index 0/);
  });
});
