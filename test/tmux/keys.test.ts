// Key name validation: tmux key names pass in canonical spelling; anything some supported tmux
// would type as text, send without a modifier, or send differently is refused with the accepted
// forms. test/integration/tmux/keys.test.ts checks the accepted names against each real tmux.
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
    ["S-Up", "S-Up"],
    ["s-m-c-Up", "C-M-S-Up"],
    ["C-S-F5", "C-S-F5"],
    ["M-S-pgdn", "M-S-PgDn"],
    ["C--", "C--"],
    ["C-2", "C-2"],
    ["C-M-a", "C-M-a"],
    ["C-A", "C-A"],
    ["C-?", "C-?"],
    ["C-Space", "C-Space"],
    ["M-Enter", "M-Enter"],
    ["M-KP5", "M-KP5"],
    ["M-!", "M-!"],
    ["M-0", "M-0"],
    ["0x1c", "0x1c"],
    ["0x1B", "0x1b"],
    ["0x7f", "0x7f"],
  ])("accepts modifiers and code points: %j becomes %j", (name, canonical) => {
    expect(validateKeyName(name)).toBe(canonical);
  });

  it.each([
    ["Enter;kill-server", 'contains ";"'],
    ["C-c d", "contains a space"],
    ["Enter\n", "control character"],
    ["a'b", "contains \"'\""],
    ['"', "type it with `text`"],
    ["'", "type it with `text`"],
    [";", "type it with `text`"],
    ["\\", "type it with `text`"],
    ["#", "type it with `text`"],
    ["~", "type it with `text`"],
    [" ", "space or control"],
    ["\u001b", "space or control"],
    ["", "empty"],
    ["C-", "nothing follows"],
    ["C-C-c", "given twice"],
    ["F13", "not a key tmux knows"],
    ["Bogus", "not a key tmux knows"],
    ["0x110000", "0x1..0x7f"],
    ["0xd800", "0x1..0x7f"],
    ["0x0", "0x1..0x7f"],
    ["0x80", "character tables"],
    ["0xzz", "0x1..0x7f"],
    ["0X41", "not a key tmux knows"],
    // Named in issue 11: each of these reached the pane as text (or lost its modifier).
    ["S-a", "a takes C- and M- (not S-"],
    ["M-0x10ffff", "0x1..0x7f"],
    ["C-é", "é takes no modifiers"],
    ["M-é", "press Escape, then type the character"],
    ["C-0x41", "a code point takes no modifiers"],
    ["C-0x1C", "a code point takes no modifiers"],
    ["S-Tab", "Tab takes only M-"],
    ["C-Enter", "Enter takes only M-"],
    ["C-KP0", "KP0 takes only M-"],
    ["M-BTab", "tmux 3.5+ drops M-"],
    ["S-Space", "Space takes C- and M- (not S-)"],
    ["C-1", "1 takes only M-"],
    ["C-M-2", "C- or M-, not both"],
    ["C-S-a", "not S-"],
    ["^a", "write C-a instead of ^a"],
    ["None", "not a key tmux knows"],
    ["User0", "not a key tmux knows"],
    ["MouseDown1", "not a key tmux knows"],
    ["[NUL]", "not a key tmux knows"],
    ["a-b", "not a key tmux knows"],
  ])("rejects %j (%s)", (name, why) => {
    expect(rejection(name)).toContain(why);
  });

  it.each([
    ["Return", "Enter"],
    ["RETURN", "Enter"],
    ["Ret", "Enter"],
    ["CR", "Enter"],
    ["ESC", "Escape"],
    ["Esc", "Escape"],
    ["Del", "Delete"],
    ["Backspace", "BSpace"],
    ["BS", "BSpace"],
    ["Ins", "Insert"],
    ["ArrowUp", "Up"],
    ["Page_Down", "PageDown"],
    ["Spacebar", "Space"],
    ["Ctrl-C", "C-c"],
    ["ctrl+c", "C-c"],
    ["Control-X", "C-x"],
    ["Ctl-d", "C-d"],
    ["^X", "C-x"],
    ["^c", "C-c"],
    ["Alt-x", "M-x"],
    ["Meta-Enter", "M-Enter"],
    ["M-Return", "M-Enter"],
    ["Ctrl-Shift-Up", "C-S-Up"],
    ["Shift-Tab", "BTab"],
    ["S-Tab", "BTab"],
    ["Ctrl-Space", "C-Space"],
    // Ctrl-\ (SIGQUIT): "\" is never part of a name, and typing it as text is not the key.
    ["C-\\", "0x1c"],
    ["^\\", "0x1c"],
    ["Ctrl-\\", "0x1c"],
    // Typos one or two edits from a named key (a third of the name's letters at most).
    ["Entr", "Enter"],
    ["Escpae", "Escape"],
    ["PgaeUp", "PageUp"],
    ["Delet", "Delete"],
    ["M-Entr", "M-Enter"],
  ])("refuses %j with a hint: did you mean %j", (name, meant) => {
    const message = rejection(name);
    expect(message).toContain(`(did you mean "${meant}"?)`);
    expect(validateKeyName(meant)).toBe(meant);
  });

  it.each(["Bogus", "F13", "KP10", "Hoem", "Ctrl-Enter", "C-Entr", "Enter;kill-server", "C-C-c", "Ctrl-"])("gives no hint for %j, which no common alias or near spelling explains", (name) => {
    expect(rejection(name)).not.toContain("did you mean");
  });

  it("keeps the hint short and before the accepted forms", () => {
    const message = rejection("Return");
    expect(message.startsWith('key name "Return" is not valid (did you mean "Enter"?): ')).toBe(true);
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
    for (const form of ["Enter", "F1..F12", "C- M- S-", "`text`"]) expect(message).toContain(form);
  });

  it("answers isKeyName without throwing", () => {
    expect(isKeyName("Up")).toBe(true);
    expect(isKeyName("Up Up")).toBe(false);
  });
});
