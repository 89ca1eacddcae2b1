// Key names as tmux send-keys takes them, validated before they reach tmux. Shared by tape `press`
// steps and the MCP send_keys tool. tmux types a name it cannot send as a key as literal text
// (`send-keys S-a` types "S-a", `send-keys Bogus` types "Bogus"), or silently drops a modifier
// (`C-é` sends "é"), so only names every supported tmux sends as that very key are accepted.
//
// The table below was measured, not guessed: every candidate name (named keys, ASCII, non-ASCII,
// code points, each with all 8 modifier sets) was sent to a raw `cat` pane on tmux 3.2a, 3.3a, 3.4,
// 3.5a, 3.6a and 3.7c, with `extended-keys` off and `always`, and a name is accepted only if on
// every one it arrived as key bytes (not its own text, not nothing), each modifier changed the bytes,
// and the bytes were the same everywhere. Sources: key-string.c (name → key code: 3.2a–3.4 refuse
// C- on keys without a control form; 3.4+ read `0x1`..`0x1f` directly) and input-keys.c (key code →
// bytes: without extended keys only arrows, Home/End, PageUp/PageDown, Insert/Delete and F1–F12
// have S- and C- forms; 3.5 rewrote it and dropped M- from BTab). test/integration/tmux/keys.test.ts
// re-checks every accepted name on each tmux.

import { PanescopeError } from "../errors.js";
import { nearest } from "../nearest.js";

type Mods = "C" | "M" | "S";

/** Which modifier sets a kind of key takes (the empty set is always allowed). */
const ALL_MODS = ["C", "M", "S", "CM", "CS", "MS", "CMS"];
const META = ["M"];
const CTRL_META = ["C", "M", "CM"];
const CTRL_OR_META = ["C", "M"];

interface KeyKind {
  /** Modifier sets allowed, letters in C M S order ("CM" = C-M-). */
  mods: readonly string[];
  /** How to say it in a refusal. */
  takes: string;
}

const NAVIGATION: KeyKind = { mods: ALL_MODS, takes: "any of C- M- S-" };
const META_ONLY: KeyKind = { mods: META, takes: "only M-" };

/** Named keys in tmux's spelling (key-string.c; matched case-insensitively, as tmux does). */
const NAMED: ReadonlyMap<string, KeyKind> = new Map<string, KeyKind>([
  ...["Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PgUp", "PPage", "PageDown", "PgDn", "NPage", "Insert", "IC", "Delete", "DC"].map(
    (name): [string, KeyKind] => [name, NAVIGATION],
  ),
  ...Array.from({ length: 12 }, (_, i): [string, KeyKind] => [`F${i + 1}`, NAVIGATION]),
  ...["Enter", "Escape", "Tab", "BSpace", "KPEnter", "KP/", "KP*", "KP-", "KP+", "KP."].map((name): [string, KeyKind] => [name, META_ONLY]),
  ...Array.from({ length: 10 }, (_, i): [string, KeyKind] => [`KP${i}`, META_ONLY]),
  // 3.2a–3.4 send M-BTab as ESC ESC [ Z, 3.5+ as ESC [ Z: only the bare key is the same everywhere.
  ["BTab", { mods: [], takes: "no modifiers (tmux 3.5+ drops M- from it)" }],
  ["Space", { mods: CTRL_META, takes: "C- and M- (not S-)" }],
]);

export const NAMED_KEYS: readonly string[] = [...NAMED.keys()];
const BY_LOWER = new Map([...NAMED.keys()].map((name) => [name.toLowerCase(), name]));

/** One ASCII character: which modifiers tmux sends faithfully for it. */
function asciiKind(c: string): KeyKind {
  // C- makes a control character only for these (C-a = 0x01, C-@ = C-2 = 0x00, C-? = 0x7f…).
  if (/^[A-Za-z@[\]^_?]$/.test(c)) return { mods: CTRL_META, takes: "C- and M- (not S-: type the other case as text)" };
  // C-2 = 0x00, C-6 = 0x1e, C-- = C-/ = 0x1f; with C-M- 3.2a–3.4 type the name as text.
  if (/^[26/-]$/.test(c)) return { mods: CTRL_OR_META, takes: "C- or M-, not both, and not S-" };
  return { mods: META, takes: "only M- (tmux has no C- or S- form of it)" };
}

/** Longest accepted name is far shorter ("C-M-S-PageDown"); anything longer is not a key. */
export const MAX_KEY_NAME_LENGTH = 32;

// Characters panescope does not take in key names: special to tmux command lines (separator,
// quotes, escape, comment, braces, variable and home expansion) and to tapes. Type them as text.
const SPECIAL = new Set([";", '"', "'", "\\", "#", "{", "}", "$", "~"]);

/** The forms a key name takes; how to send other text is each caller's to say (validateKeyName). */
const FORMS =
  "Up, Down, Left, Right, Home, End, PageUp/PPage, PageDown/NPage, Insert/IC, Delete/DC, F1..F12 (with any of C- M- S-); " +
  "Enter, Escape, Tab, BSpace, KP0..KP9, KPEnter, KP/ KP* KP- KP+ KP. (with M-); BTab; Space (with C- M-); " +
  "a letter or @ [ ] ^ _ ? (with C- M-, e.g. C-c, M-x, C-M-a); another printable ASCII character (with M-), " +
  "except space ; \" ' \\ # { } $ ~; one non-ASCII character (no modifiers); a code point 0x1..0x7f (no modifiers). " +
  "Modifiers go before the key in any order and case (c-m-a).";

/** How other text is sent through send_keys: its `text` field (the default of validateKeyName's words). */
const SEND_TEXT = "`text`";

export const KEY_FORMS = `${FORMS} Send other text with ${SEND_TEXT}`;

/** A refusal naming the accepted forms, and how other text is sent where the name was given. */
type Reject = (why: string) => never;

function rejecter(name: string, sendText: string, hint: boolean): Reject {
  const shown = name.length > 40 ? `${JSON.stringify(name.slice(0, 40))}… (${name.length} characters)` : JSON.stringify(name);
  return (why) => {
    const meant = hint ? meantKey(name) : undefined;
    const asked = meant === undefined ? "" : ` (did you mean ${JSON.stringify(meant)}?)`;
    throw new PanescopeError("bad-input", `key name ${shown} is not valid${asked}: ${why}. Accepted: ${FORMS} Send other text with ${sendText}`);
  };
}

/** Other names for tmux's keys (lower case, without - _ or spaces): other programs', keyboards', DOM's. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ...["return", "ret", "cr", "carriagereturn"].map((alias): [string, string] => [alias, "Enter"]),
  ...["esc"].map((alias): [string, string] => [alias, "Escape"]),
  ...["del", "forwarddelete"].map((alias): [string, string] => [alias, "Delete"]),
  ...["backspace", "bs", "bksp", "back"].map((alias): [string, string] => [alias, "BSpace"]),
  ...["ins"].map((alias): [string, string] => [alias, "Insert"]),
  ...["prior", "pageup"].map((alias): [string, string] => [alias, "PageUp"]),
  ...["next", "pagedown", "pagedn"].map((alias): [string, string] => [alias, "PageDown"]),
  ...["spacebar", "spc"].map((alias): [string, string] => [alias, "Space"]),
  ...["Up", "Down", "Left", "Right"].flatMap((key): Array<[string, string]> => [[`arrow${key.toLowerCase()}`, key], [`${key.toLowerCase()}arrow`, key]]),
]);

/** Modifier words as other programs write them (Ctrl-c, Control+x, Alt-x, Shift-Up), and tmux's own. */
const MODIFIER_WORDS: ReadonlyMap<string, Mods> = new Map([
  ...["ctrl", "control", "ctl", "c"].map((word): [string, Mods] => [word, "C"]),
  ...["alt", "meta", "opt", "option", "m"].map((word): [string, Mods] => [word, "M"]),
  ...["shift", "s"].map((word): [string, Mods] => [word, "S"]),
]);

/**
 * The key a refused name most likely meant, in tmux's spelling, when a common alias explains it
 * (Return → Enter, Ctrl-C and ^C → C-c, ESC → Escape, Shift-Tab → BTab); undefined otherwise. Only
 * a name panescope accepts is suggested.
 */
function meantKey(name: string): string | undefined {
  if (typeof name !== "string" || name.length > MAX_KEY_NAME_LENGTH) return undefined;
  let rest = name.trim();
  const mods = new Set<Mods>();
  if (/^\^./u.test(rest)) {
    mods.add("C");
    rest = rest.slice(1);
  }
  for (let m = /^([a-z]+)\s*[-+]\s*(?=.)/i.exec(rest); m?.[1] !== undefined; m = /^([a-z]+)\s*[-+]\s*(?=.)/i.exec(rest)) {
    const mod = MODIFIER_WORDS.get(m[1].toLowerCase());
    if (mod === undefined || mods.has(mod)) break;
    mods.add(mod);
    rest = rest.slice(m[0].length);
  }
  // Ctrl-\ (SIGQUIT): "\" is never part of a name, and typed as text it is a backslash.
  if (rest === "\\" && mods.size === 1 && mods.has("C")) return "0x1c";
  const squashed = rest.toLowerCase().replace(/[-_\s]/g, "");
  let key = ALIASES.get(squashed) ?? BY_LOWER.get(squashed) ?? misspelt(squashed) ?? rest;
  // A control character is the same whatever the letter's case: say it the way tmux's docs do.
  if (mods.has("C") && /^[A-Z]$/.test(key)) key = key.toLowerCase();
  if (key === "Tab" && mods.size === 1 && mods.has("S")) return "BTab";
  const candidate = modsText(mods) + key;
  try {
    const meant = checked(candidate, SEND_TEXT, false);
    return meant === name ? undefined : meant;
  } catch {
    return undefined;
  }
}

/**
 * The named key (or alias) a typo of 3 or more letters was one or two edits from (Entr → Enter).
 * Not a name with a digit: F13 or KP10 is no typo of F1 or KP1.
 */
function misspelt(squashed: string): string | undefined {
  if (squashed.length < 3 || /\d/.test(squashed)) return undefined;
  const near = nearest(squashed, [...BY_LOWER.keys(), ...ALIASES.keys()]);
  return near === undefined ? undefined : (BY_LOWER.get(near) ?? ALIASES.get(near));
}

function modsText(mods: ReadonlySet<Mods>): string {
  return (["C", "M", "S"] as const).filter((m) => mods.has(m)).map((m) => `${m}-`).join("");
}

/** The base key in canonical spelling and what it takes, or a rejection. */
function baseKey(name: string, base: string, mods: ReadonlySet<Mods>, reject: Reject): { key: string; kind: KeyKind } {
  if (base === "") return reject("nothing follows the modifiers");
  const named = BY_LOWER.get(base.toLowerCase());
  if (named !== undefined) return { key: named, kind: NAMED.get(named) ?? META_ONLY };
  if (/^0x/.test(base)) {
    const hex = /^0x([0-9a-fA-F]{1,6})$/.exec(base);
    const cp = hex?.[1] === undefined ? Number.NaN : Number.parseInt(hex[1], 16);
    if (!(cp >= 1 && cp <= 0x7f)) {
      return reject("a code point must be 0x1..0x7f; above that tmux takes it only if its character tables know it (type the character as text)");
    }
    // key-string.c reads 0x… only at the start of the name: C-0x41 is typed as the text "C-0x41".
    if (mods.size > 0) return reject(`a code point takes no modifiers (tmux would type "${name}" as text)`);
    return { key: `0x${(hex?.[1] ?? "").toLowerCase()}`, kind: { mods: [], takes: "no modifiers" } };
  }
  if (/^\^./u.test(base)) return reject(`write C-${base.slice(1)} instead of ${base}`);
  const chars = [...base];
  if (chars.length !== 1) return reject(`"${base.slice(0, 20)}" is not a key tmux knows`);
  const c = base;
  if ((c.codePointAt(0) ?? 0) > 0x7f) {
    // 3.2a–3.4 drop C- and S- from non-ASCII keys; M- works only if the tmux build's width table knows
    // the character (3.3a here types M-0x10ffff as text), so the outcome would depend on the build.
    return { key: c, kind: { mods: [], takes: "no modifiers (tmux drops C- and S-, and takes M- only for characters its tables know: press Escape, then type the character)" } };
  }
  return { key: c, kind: asciiKind(c) };
}

/**
 * Check one key name and return it in canonical spelling (`enter` → `Enter`, `c-c` → `C-c`,
 * modifiers ordered C- M- S-). A refusal names the accepted forms and how other text is sent where
 * the name was given (`sendText`: send_keys' `text` field unless told otherwise).
 * Throws PanescopeError("bad-input").
 */
export function validateKeyName(name: string, sendText = SEND_TEXT): string {
  return checked(name, sendText, true);
}

/** validateKeyName, with the "did you mean" of a refusal (`hint`) or without (checking a hint itself). */
function checked(name: string, sendText: string, hint: boolean): string {
  const reject = rejecter(typeof name === "string" ? name : String(name), sendText, hint);
  if (typeof name !== "string" || name === "") return reject("empty");
  if (name.length > MAX_KEY_NAME_LENGTH) return reject(`longer than ${MAX_KEY_NAME_LENGTH} characters`);
  if (/[\s\p{C}]/u.test(name)) return reject("contains a space or control character (one key per name; Space is a key)");
  const special = [...name].find((c) => SPECIAL.has(c));
  if (special !== undefined) return reject(`contains "${special}", which panescope does not take in key names (type it with ${sendText})`);
  let rest = name;
  const mods = new Set<Mods>();
  // tmux reads "C-" as a modifier with no key; it is rejected below as "nothing follows".
  for (let m = /^([cmsCMS])-/.exec(rest); m?.[1] !== undefined; m = /^([cmsCMS])-/.exec(rest)) {
    const mod = m[1].toUpperCase() as Mods;
    if (mods.has(mod)) return reject(`modifier ${mod}- given twice`);
    mods.add(mod);
    rest = rest.slice(2);
  }
  const { key, kind } = baseKey(name, rest, mods, reject);
  const set = (["C", "M", "S"] as const).filter((m) => mods.has(m)).join("");
  if (set !== "" && !kind.mods.includes(set)) {
    return reject(`${key} takes ${kind.takes}; tmux would not send ${modsText(mods)}${key} as that key`);
  }
  return modsText(mods) + key;
}

/** True when `validateKeyName` would accept the name. */
export function isKeyName(name: string): boolean {
  try {
    checked(name, SEND_TEXT, false);
    return true;
  } catch {
    return false;
  }
}
