// Key name validation: tmux key names pass in canonical spelling, anything that could type text
// silently or change a tmux command line is refused with the accepted forms.
import { describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { isKeyName, validateKeyName } from "../../src/tmux/keys.js";

function rejection(name: string): string {
  try {
    validateKeyName(name);
  } catch (error) {
    expect(isPanescopeError(error, "bad-input")).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(name)}`);
}

describe("validateKeyName", () => {
  it.each([
    ["Enter", "Enter"],
    ["enter", "Enter"],
    ["ESCAPE", "Escape"],
    ["BSpace", "BSpace"],
    ["PageUp", "PageUp"],
    ["NPage", "NPage"],
    ["F1", "F1"],
    ["F12", "F12"],
    ["KP/", "KP/"],
    ["Space", "Space"],
    ["a", "a"],
    ["Z", "Z"],
    ["/", "/"],
    ["é", "é"],
    ["-", "-"],
  ])("accepts the key %j as %j", (name, canonical) => {
    expect(validateKeyName(name)).toBe(canonical);
  });

  it.each([
    ["C-c", "C-c"],
    ["c-c", "C-c"],
    ["M-x", "M-x"],
    ["S-Tab", "S-Tab"],
    ["s-m-c-Up", "C-M-S-Up"],
    ["C--", "C--"],
    ["0x1c", "0x1c"],
    ["C-0x1C", "C-0x1c"],
  ])("accepts modifiers and code points: %j becomes %j", (name, canonical) => {
    expect(validateKeyName(name)).toBe(canonical);
  });

  it.each([
    ["Enter;kill-server", 'contains ";"'],
    ["C-c d", "contains a space"],
    ["Enter\n", "control character"],
    ["a'b", "contains \"'\""],
    ['"', "special to tmux"],
    ["'", "special to tmux"],
    [";", "special to tmux"],
    ["\\", "special to tmux"],
    ["#", "special to tmux"],
    ["~", "special to tmux"],
    [" ", "space or control"],
    ["\u001b", "space or control"],
    ["", "empty"],
    ["C-", "nothing follows"],
    ["C-C-c", "given twice"],
    ["F13", "not a key tmux knows"],
    ["Bogus", "not a key tmux knows"],
    ["0x110000", "out of range"],
    ["0xd800", "out of range"],
  ])("rejects %j (%s)", (name, why) => {
    expect(rejection(name)).toContain(why);
  });

  it("rejects a 10 KB string quickly and without echoing it whole", () => {
    const huge = "A".repeat(10_240);
    const message = rejection(huge);
    expect(message).toContain("longer than 32");
    expect(message).toContain("10240 characters");
    expect(message.length).toBeLessThan(1000);
  });

  it("lists the accepted forms in every rejection", () => {
    const message = rejection("Enter;kill-server");
    for (const form of ["Enter", "F1..F12", "C- M- S-", "type"]) expect(message).toContain(form);
  });

  it("answers isKeyName without throwing", () => {
    expect(isKeyName("Up")).toBe(true);
    expect(isKeyName("Up Up")).toBe(false);
  });
});
