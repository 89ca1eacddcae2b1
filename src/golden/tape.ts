// Parse a `*.tape` scenario: settings, then one `run`, then the steps that drive and snapshot the
// program. One statement a line, `#` starts a comment line. Pure: text in, Tape out.

import { PanescopeError } from "../errors.js";
import type { Mask } from "./format.js";
import { validateKeyName } from "../tmux/keys.js";
import { Fail, parseDuration, parseSize, Scanner, type Size } from "./literals.js";
import { didYouMean } from "./vhs.js";

export type { Size } from "./literals.js";

/**
 * `run ["prog", "arg"]` runs argv directly (no shell); any other `run prog arg | tee x` is a shell
 * command line, given as is to `sh -c` (the runner should spawn `sh -c` itself rather than rely on
 * tmux's default-shell, which follows the user's $SHELL).
 */
export type RunCommand = { kind: "argv"; argv: string[] } | { kind: "shell"; command: string };

/** What `wait` looks for in the screen rows joined with "\n" (so /^…$/m matches a row). */
export type TextMatch = { kind: "text"; text: string } | { kind: "regex"; regex: RegExp };

export type Step =
  | { kind: "type"; line: number; text: string }
  | { kind: "press"; line: number; keys: string[] }
  | { kind: "wait"; line: number; match: TextMatch; timeoutMs: number }
  | { kind: "quiet"; line: number; ms: number; timeoutMs: number }
  | { kind: "snapshot"; line: number; name: string }
  | { kind: "resize"; line: number; size: Size }
  | { kind: "expect-exit"; line: number; code: number };

export interface Tape {
  path: string;
  size: Size;
  env: Record<string, string>;
  /** Quiet period awaited before every snapshot. */
  settleMs: number;
  /** Default time limit of `wait` and `quiet`. */
  timeoutMs: number;
  colors: boolean;
  masks: Mask[];
  run: { line: number; command: RunCommand };
  /** The steps after `run`, in file order. */
  steps: Step[];
}

export const TAPE_DEFAULTS = { size: { cols: 80, rows: 24 }, settleMs: 200, timeoutMs: 5000, colors: false } as const;

const FORMS: Record<string, string> = {
  size: "size 80x24 (columns x rows: 2..1000 x 1..1000)",
  env: 'env NAME=value or env NAME="value with spaces"',
  settle: "settle 200ms (quiet period before each snapshot)",
  timeout: "timeout 5s (default limit for wait and quiet)",
  colors: "colors on | colors off",
  mask: 'mask /regex/flags "placeholder"',
  run: 'run ["prog", "arg"] (argv, no shell) or run a shell command line (given to sh -c)',
  type: 'type "text" (JSON string escapes: \\n \\t \\u001b)',
  press: "press Enter C-c Up*3 (tmux key names, Key*N repeats)",
  wait: 'wait "text" or wait /regex/flags, optionally followed by timeout 5s',
  quiet: "quiet 300ms, optionally followed by timeout 5s",
  snapshot: "snapshot NAME (a-z 0-9 . _ -, unique in the tape)",
  resize: "resize 100x30",
  expect: "expect exit 0",
};
const SETTINGS = new Set(["size", "env", "settle", "timeout", "colors", "mask"]);
/** Errors reported per tape; past this, a count (a binary file is not worth a thousand lines). */
const MAX_ERRORS = 20;
function optionalTimeout(s: Scanner, fallback: number): number {
  if (s.atEnd()) return fallback;
  const word = s.word("timeout");
  if (word !== "timeout") throw new Fail(`unexpected "${word}"`);
  const ms = parseDuration(s.word("timeout duration"));
  if (ms === 0) throw new Fail("timeout must be above 0");
  return ms;
}

/** How a tape sends text that is not a key, for a refused key name. */
const SEND_TEXT = 'a `type "text"` statement';

function parseKeys(s: Scanner): string[] {
  const keys: string[] = [];
  while (!s.atEnd()) {
    const word = s.word("key");
    const m = /^(.+)\*(\d+)$/.exec(word);
    const count = m === null ? 1 : Number(m[2]);
    if (count < 1 || count > 1000) throw new Fail(`repeat count ${count} is not in 1..1000`);
    let key: string;
    try {
      key = validateKeyName(m?.[1] ?? word, SEND_TEXT);
    } catch (error) {
      throw new Fail(error instanceof Error ? error.message : String(error));
    }
    for (let i = 0; i < count; i++) keys.push(key);
  }
  if (keys.length === 0) throw new Fail("press needs at least one key");
  if (keys.length > 1000) throw new Fail("more than 1000 keys on one line");
  return keys;
}

function parseRun(rest: string): RunCommand {
  // `[ -f x ] && …` is a shell test, not argv: argv starts with `["` (or is the empty `[]`).
  if (/^\[\s*["\]]/.test(rest)) {
    let argv: unknown;
    try {
      argv = JSON.parse(rest);
    } catch {
      throw new Fail("run [...] must be a JSON array of strings");
    }
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string") || argv[0] === "") {
      throw new Fail("run [...] must be a non-empty JSON array of strings");
    }
    return { kind: "argv", argv: argv as string[] };
  }
  if (rest === "") throw new Fail("run needs a command");
  return { kind: "shell", command: rest };
}

/**
 * Parse tape text. Every bad line is reported, not only the first: one PanescopeError("golden")
 * whose message has a line per error, `path:line: what; expected: form`.
 */
export function parseTape(text: string, path: string): Tape {
  const tape: Omit<Tape, "run"> & { run?: Tape["run"] } = {
    path,
    size: { ...TAPE_DEFAULTS.size },
    env: {},
    settleMs: TAPE_DEFAULTS.settleMs,
    timeoutMs: TAPE_DEFAULTS.timeoutMs,
    colors: TAPE_DEFAULTS.colors,
    masks: [],
    steps: [],
  };
  const seen = new Map<string, number>(); // once-only settings and snapshot names → line
  const errors: string[] = [];
  // The line of `run`, even a malformed one: later steps then get their own errors, not "put run before it".
  let runLine: number | undefined;
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    const statement = raw.replace(/\r$/, "").trim();
    if (statement === "" || statement.startsWith("#")) return;
    const keyword = /^\S+/.exec(statement)?.[0] ?? "";
    const s = new Scanner(statement, keyword.length);
    const where = `${path}:${line}`;
    // Own keys only: "toString" or "constructor" must not read as statements through the prototype.
    const form = Object.hasOwn(FORMS, keyword) ? FORMS[keyword] : undefined;
    try {
      if (form === undefined) {
        const hint = didYouMean(keyword, statement.slice(keyword.length), Object.keys(FORMS));
        const name = `unknown statement "${keyword.slice(0, 30)}"`;
        throw new Fail(hint === undefined ? `${name} (known: ${Object.keys(FORMS).join(", ")})` : `${name}; did you mean: ${hint}`);
      }
      // Given only once its whole line is accepted: a refused `timeout 5` leaves the next one free.
      let given: string | undefined;
      const once = (key: string): void => {
        const first = seen.get(key);
        if (first !== undefined) throw new Fail(`${key} already given on line ${first}`);
        given = key;
      };
      if (SETTINGS.has(keyword) && runLine !== undefined) throw new Fail(`${keyword} is a setting: put it before run (line ${runLine})`);
      if (!SETTINGS.has(keyword) && keyword !== "run" && runLine === undefined) throw new Fail(`${keyword} needs a program: put run before it`);
      const exitLine = seen.get("expect exit");
      if (exitLine !== undefined && keyword !== "snapshot") throw new Fail(`only snapshot may follow expect exit (line ${exitLine})`);
      switch (keyword) {
        case "size":
          once("size");
          tape.size = parseSize(s.word("size"));
          break;
        case "env": {
          s.skipSpace();
          const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(statement.slice(s.pos));
          if (m?.[1] === undefined) throw new Fail("expected NAME=value with NAME made of letters, digits and _");
          s.pos += m[0].length;
          const value = statement[s.pos] === '"' ? s.quoted("env value") : s.atEnd() ? "" : s.word("value");
          if (/[\0]/.test(value)) throw new Fail("env value contains a NUL character");
          once(`env ${m[1]}`);
          tape.env[m[1]] = value;
          break;
        }
        case "settle":
          once("settle");
          tape.settleMs = parseDuration(s.word("duration"));
          break;
        case "timeout":
          once("timeout");
          tape.timeoutMs = parseDuration(s.word("duration"));
          if (tape.timeoutMs === 0) throw new Fail("timeout must be above 0");
          break;
        case "colors": {
          once("colors");
          const value = s.word("on or off");
          if (value !== "on" && value !== "off") throw new Fail(`colors is on or off, not "${value}"`);
          tape.colors = value === "on";
          break;
        }
        case "mask": {
          const pattern = s.regex("mask pattern");
          const placeholder = s.quoted("mask placeholder");
          if (/[\p{Cc}]/u.test(placeholder)) throw new Fail("mask placeholder must not contain control characters");
          tape.masks.push({ pattern, placeholder });
          break;
        }
        case "run":
          once("run");
          runLine = line;
          tape.run = { line, command: parseRun(statement.slice(s.pos).trim()) };
          s.pos = statement.length;
          break;
        case "type": {
          const text = s.quoted("type text");
          if (text === "") throw new Fail("type needs some text");
          if (text.length > 65_536) throw new Fail("type text is over 64 KiB");
          tape.steps.push({ kind: "type", line, text });
          break;
        }
        case "press":
          tape.steps.push({ kind: "press", line, keys: parseKeys(s) });
          break;
        case "wait": {
          s.skipSpace();
          const match: TextMatch =
            statement[s.pos] === "/" ? { kind: "regex", regex: s.regex("wait pattern") } : { kind: "text", text: s.quoted("wait text") };
          if (match.kind === "text" && match.text === "") throw new Fail("wait needs some text");
          tape.steps.push({ kind: "wait", line, match, timeoutMs: optionalTimeout(s, tape.timeoutMs) });
          break;
        }
        case "quiet": {
          const ms = parseDuration(s.word("duration"));
          if (ms === 0) throw new Fail("quiet must be above 0ms");
          tape.steps.push({ kind: "quiet", line, ms, timeoutMs: optionalTimeout(s, Math.max(tape.timeoutMs, ms * 2)) });
          break;
        }
        case "snapshot": {
          const name = s.word("snapshot name");
          if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(name)) throw new Fail(`bad snapshot name "${name.slice(0, 40)}"`);
          once(`snapshot ${name}`);
          tape.steps.push({ kind: "snapshot", line, name });
          break;
        }
        case "resize":
          tape.steps.push({ kind: "resize", line, size: parseSize(s.word("size")) });
          break;
        case "expect": {
          if (s.word("exit") !== "exit") throw new Fail('expected "expect exit N"');
          const code = s.word("exit code");
          if (!/^\d{1,3}$/.test(code) || Number(code) > 255) throw new Fail(`exit code is 0..255, not "${code}"`);
          once("expect exit");
          tape.steps.push({ kind: "expect-exit", line, code: Number(code) });
          break;
        }
      }
      s.end();
      if (given !== undefined) seen.set(given, line);
    } catch (error) {
      if (!(error instanceof Fail)) throw error;
      errors.push(`${where}: ${error.what}${form === undefined ? "" : `; expected: ${form}`}`);
    }
  });
  if (runLine === undefined) errors.push(`${path}: no run statement; expected: ${FORMS.run}`);
  if (errors.length > 0 || tape.run === undefined) {
    const more = errors.length > MAX_ERRORS ? [`${path}: … and ${errors.length - MAX_ERRORS} more errors`] : [];
    throw new PanescopeError("golden", [...errors.slice(0, MAX_ERRORS), ...more].join("\n"));
  }
  return { ...tape, run: tape.run };
}
