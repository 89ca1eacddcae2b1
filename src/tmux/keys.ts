// Key names as tmux send-keys takes them, validated before they reach tmux. Shared by tape `press`
// steps and the MCP send_keys tool. tmux sends an unknown key name as literal text (tmux 3.3a:
// `send-keys Bogus` types "Bogus", `send-keys F13` types "F13"), so a typo would type silently;
// a `;`, quote or space could also change the command line in control mode. Hence a whitelist.

import { PanescopeError } from "../errors.js";

/** Named keys as spelled in tmux's key-string.c (tmux matches them case-insensitively). */
export const NAMED_KEYS: readonly string[] = [
  "Enter", "Escape", "Tab", "BTab", "Space", "BSpace",
  "Up", "Down", "Left", "Right", "Home", "End",
  "PageUp", "PgUp", "PPage", "PageDown", "PgDn", "NPage",
  "Insert", "IC", "Delete", "DC",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ...Array.from({ length: 10 }, (_, i) => `KP${i}`),
  "KP/", "KP*", "KP-", "KP+", "KP.", "KPEnter",
];

const BY_LOWER = new Map(NAMED_KEYS.map((name) => [name.toLowerCase(), name]));

/** Longest accepted name is far shorter ("C-M-S-PageDown"); anything longer is not a key. */
export const MAX_KEY_NAME_LENGTH = 32;

// Characters tmux's command parser treats specially (separator, quotes, escape, comment, braces,
// variable and home expansion). Send them with `type` (send-keys -l), not as a key name.
const SPECIAL = new Set([";", '"', "'", "\\", "#", "{", "}", "$", "~"]);

export const KEY_FORMS =
  "a named key (Enter, Escape, Tab, BTab, Space, BSpace, Up, Down, Left, Right, Home, End, " +
  "PageUp/PPage, PageDown/NPage, Insert/IC, Delete/DC, F1..F12, KP0..KP9, KPEnter), " +
  "one printable character other than space ; \" ' \\ # { } $ ~ (a, Z, 5, /), " +
  "a code point as 0x1c..0x10ffff, any of these after modifiers C- M- S- (C-c, M-x, C-S-Up); " +
  "send other text with `type`";

function reject(name: string, why: string): never {
  const shown = name.length > 40 ? `${JSON.stringify(name.slice(0, 40))}… (${name.length} characters)` : JSON.stringify(name);
  throw new PanescopeError("bad-input", `key name ${shown} is not valid: ${why}. Accepted: ${KEY_FORMS}`);
}

function validateBase(name: string, base: string): string {
  if (base === "") return reject(name, "nothing follows the modifiers");
  const named = BY_LOWER.get(base.toLowerCase());
  if (named !== undefined) return named;
  const hex = /^0x([0-9a-fA-F]{1,6})$/.exec(base);
  if (hex?.[1] !== undefined) {
    const cp = Number.parseInt(hex[1], 16);
    if (cp < 1 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return reject(name, "code point out of range");
    return `0x${hex[1].toLowerCase()}`;
  }
  const chars = [...base];
  if (chars.length !== 1) return reject(name, `"${base.slice(0, 20)}" is not a key tmux knows`);
  return base;
}

/**
 * Check one key name and return it in canonical spelling (`enter` → `Enter`, `c-c` → `C-c`,
 * modifiers ordered C- M- S-). Throws PanescopeError("bad-input") naming the accepted forms.
 */
export function validateKeyName(name: string): string {
  if (typeof name !== "string" || name === "") return reject(String(name), "empty");
  if (name.length > MAX_KEY_NAME_LENGTH) return reject(name, `longer than ${MAX_KEY_NAME_LENGTH} characters`);
  if (/[\s\p{C}]/u.test(name)) return reject(name, "contains a space or control character (one key per name; Space is a key)");
  const special = [...name].find((c) => SPECIAL.has(c));
  if (special !== undefined) return reject(name, `contains "${special}", which is special to tmux's command parser`);
  let rest = name;
  const mods = new Set<string>();
  // tmux reads "C-" as a modifier with no key; it is rejected below as "nothing follows".
  for (let m = /^([cmsCMS])-/.exec(rest); m?.[1] !== undefined; m = /^([cmsCMS])-/.exec(rest)) {
    const mod = m[1].toUpperCase();
    if (mods.has(mod)) return reject(name, `modifier ${mod}- given twice`);
    mods.add(mod);
    rest = rest.slice(2);
  }
  const base = validateBase(name, rest);
  const prefix = ["C", "M", "S"].filter((mod) => mods.has(mod)).map((mod) => `${mod}-`).join("");
  return prefix + base;
}

/** True when `validateKeyName` would accept the name. */
export function isKeyName(name: string): boolean {
  try {
    validateKeyName(name);
    return true;
  } catch {
    return false;
  }
}
