// "Did you mean": a tape statement written the VHS way (charmbracelet/vhs: `Type`, `Sleep`, `Set`,
// `Enter`, `Ctrl+C`…) answered with the statement that does that job here. Pure.

import { validateKeyName } from "../tmux/keys.js";

const COMMANDS = new Map<string, string>(Object.entries({
  Type: 'type "text" (a JSON string: "\\n" is Enter)',
  Sleep: 'wait "text" (until the screen shows it) or quiet 300ms (until output stops); a tape never sleeps blindly',
  Wait: 'wait "text" or wait /regex/',
  Set: "size 80x24 for Width/Height (columns x rows, not pixels), env NAME=value, timeout 5s; fonts, themes and typing speed do not apply",
  Output: "snapshot NAME (the golden file is <tape name>/NAME.golden beside the tape)",
  Screenshot: "snapshot NAME (the golden file is <tape name>/NAME.golden beside the tape)",
  Hide: "nothing: only snapshot steps are compared, so there is nothing to hide; remove the line",
  Show: "nothing: only snapshot steps are compared, so there is nothing to hide; remove the line",
  Require: 'nothing: run ["prog"] starts the program, and a program that ends early fails the step that needed it',
  Env: "env NAME=value",
  Source: "nothing: one tape is one scenario",
  Copy: 'type "text"',
  Paste: 'type "text"',
}));

/** VHS key commands and their tmux names, where they differ. */
const KEYS = new Map([["Backspace", "BSpace"]]);

const MODIFIERS = new Map([
  ["ctrl", "C-"],
  ["alt", "M-"],
  ["shift", "S-"],
]);

/** `Ctrl+C` → `C-c`, `Alt+Enter` → `M-Enter`, `Shift+Tab` → `BTab`; undefined when it is no key. */
function tmuxKey(vhs: string): string | undefined {
  const parts = vhs.split("+");
  const base = parts.pop() ?? "";
  let prefix = "";
  for (const part of parts) {
    const mod = MODIFIERS.get(part.toLowerCase());
    if (mod === undefined) return undefined;
    prefix += mod;
  }
  if (prefix === "S-" && base === "Tab") return "BTab";
  // tmux's C-c and C-C are the same key; a lowercase letter reads as the usual spelling.
  const key = prefix !== "" && /^[A-Z]$/.test(base) ? base.toLowerCase() : (KEYS.get(base) ?? base);
  // A bare word of one character is more likely a typo than VHS's name of a key.
  if (prefix === "" && [...key].length === 1) return undefined;
  try {
    return validateKeyName(`${prefix}${key}`);
  } catch {
    return undefined;
  }
}

/**
 * The statement to use instead of an unknown one, or undefined. `rest` is the text after the
 * keyword (`Enter 3` repeats: `press Enter*3`). `known` are this parser's statement keywords.
 */
export function didYouMean(keyword: string, rest: string, known: readonly string[]): string | undefined {
  // VHS decorates commands: `Type@500ms "x"`, `Wait+Screen /x/`, `Enter@100ms 3`.
  const bare = keyword.replace(/@\S*$/, "");
  const name = bare.split("+")[0] ?? bare;
  const command = COMMANDS.get(name);
  if (command !== undefined) return command;
  const key = tmuxKey(bare);
  if (key !== undefined) {
    const count = /^\d+$/.test(rest.trim()) ? Number(rest.trim()) : 1;
    return `press ${key}${count > 1 ? `*${count}` : ""}`;
  }
  const lower = keyword.toLowerCase();
  if (known.includes(lower)) return `${lower} (statements are lowercase)`;
  return undefined;
}
