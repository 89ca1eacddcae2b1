// Asking tmux for named values through one format (`list-panes -F`, `display -p`, `-P -F`) and
// reading them back exactly, on every tmux version. Pure: a format string out, reply lines in.
//
// Command output differs by version (measured on 3.2a–3.7c, one-shot and control mode alike):
// 3.2a, 3.3a, 3.6a and 3.7c print values raw; 3.4 and 3.5a escape control bytes as `\ooo` or `\t`
// style but leave `\` bare (so a title holding the text `\037` looks like an escaped byte), and
// 3.4 prints `$x` as `\$x`. So every value is asked for as `#{s/[\\]/\\\\/:name}`: tmux doubles
// its backslashes before its own escaping, and in the reply `\\` is a backslash while any other
// `\` starts an escape tmux added. Records and fields are delimited by a random alphanumeric nonce:
// no version rewrites it, and no value (a title, a path) can forge it.
import { randomBytes } from "node:crypto";
import { PanescopeError } from "../errors.js";
import type { TmuxVersion } from "./version.js";

/**
 * A tmux format variable, or one whose text a program set and tmux 3.7+ stores vis(3)-encoded
 * (`pane_title`, `pane_current_command`): that one is decoded again to give what the program set.
 */
export type FieldSpec = string | { variable: string; programText: true };

export type FormatRecord<K extends string> = Record<K, string>;

const RECORD_START = "B";
const FIELD_SEPARATOR = "F";
const RECORD_END = "E";

/** One format of named fields and its reader. Build once per question (a fresh nonce) or reuse. */
export class TmuxFormat<K extends string> {
  /** The format argument to give tmux (`-F`, `display -p`). */
  readonly text: string;
  /** Reading it needs the tmux version: some field is programText. */
  readonly needsVersion: boolean;
  private readonly keys: K[];
  private readonly specs: FieldSpec[];

  constructor(
    fields: Readonly<Record<K, FieldSpec>>,
    private readonly nonce: string = newNonce(),
  ) {
    if (!/^[A-Za-z0-9]{8,}$/.test(nonce)) throw new PanescopeError("internal", "a format nonce is 8 or more letters and digits");
    this.keys = Object.keys(fields) as K[];
    this.specs = this.keys.map((key) => fields[key]);
    if (this.keys.length === 0) throw new PanescopeError("internal", "a tmux format needs at least one field");
    this.needsVersion = this.specs.some((spec) => typeof spec !== "string");
    const values = this.specs.map((spec) => `#{s/[\\\\]/\\\\\\\\/:${variableOf(spec)}}`);
    this.text = nonce + RECORD_START + values.join(nonce + FIELD_SEPARATOR) + nonce + RECORD_END;
  }

  /**
   * The records in tmux's reply (one per pane for `list-panes -a`, one or none for `display -p`:
   * tmux 3.3a prints an empty line for `display -p -t %99`). `version` is needed when a field is
   * programText. Anything but whole records is a protocol error: it would mean a misread reply.
   */
  parse(lines: readonly string[], version?: TmuxVersion): FormatRecord<K>[] {
    const text = lines.join("\n");
    const start = this.nonce + RECORD_START;
    const end = this.nonce + RECORD_END;
    const records: FormatRecord<K>[] = [];
    let at = 0;
    for (;;) {
      while (text[at] === "\n") at++;
      if (at >= text.length) return records;
      const close = text.indexOf(end, at);
      if (!text.startsWith(start, at) || close < 0) {
        throw new PanescopeError("protocol", `unexpected tmux output where a record was expected: ${JSON.stringify(text.slice(at, at + 120))}`);
      }
      const raw = text.slice(at + start.length, close).split(this.nonce + FIELD_SEPARATOR);
      if (raw.length !== this.keys.length) {
        throw new PanescopeError("protocol", `a tmux record with ${raw.length} fields, expected ${this.keys.length}: ${JSON.stringify(text.slice(at, at + 120))}`);
      }
      records.push(this.record(raw, version));
      at = close + end.length;
    }
  }

  /** The one record a `display -p` or `-P -F` reply holds, or undefined when tmux printed none. */
  parseOne(lines: readonly string[], version?: TmuxVersion): FormatRecord<K> | undefined {
    const records = this.parse(lines, version);
    if (records.length > 1) throw new PanescopeError("protocol", `tmux printed ${records.length} records where one was expected`);
    return records[0];
  }

  private record(raw: string[], version: TmuxVersion | undefined): FormatRecord<K> {
    const record = {} as FormatRecord<K>;
    this.keys.forEach((key, i) => {
      const spec = this.specs[i] as FieldSpec;
      let value = decodeValue(raw[i] ?? "");
      if (typeof spec !== "string") {
        if (version === undefined) throw new PanescopeError("internal", `reading ${spec.variable} needs the tmux version`);
        if (version.storesNamesEncoded) value = decodeValue(value);
      }
      record[key] = value;
    });
    return record;
  }
}

function variableOf(spec: FieldSpec): string {
  return typeof spec === "string" ? spec : spec.variable;
}

export function newNonce(): string {
  return `Ps${randomBytes(8).toString("hex")}`;
}

// vis(3) with VIS_CSTYLE, as tmux's compat/vis.c writes it; `\s` is a space, `\$` is 3.4's.
const CSTYLE: Readonly<Record<string, number>> = { n: 10, r: 13, b: 8, a: 7, v: 11, t: 9, f: 12, s: 32, "0": 0, "\\": 92, $: 36 };
const ESCAPE = /\\(?:([0-3][0-7]{2})|([\s\S]))/g;

/**
 * Undoes one level of tmux's vis(3) escaping: `\\`, `\ooo` (a byte: several may form one UTF-8
 * character), `\n`-style C escapes and `\$`. Text without a backslash is returned as is; an escape
 * tmux never writes is kept verbatim rather than guessed at.
 */
export function decodeValue(text: string): string {
  if (!text.includes("\\")) return text;
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPE)) {
    const index = m.index;
    const octal = m[1];
    const code = octal === undefined ? CSTYLE[m[2] ?? ""] : parseInt(octal, 8);
    if (code === undefined) continue;
    parts.push(Buffer.from(text.slice(last, index), "utf8"), Buffer.of(code));
    last = index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), "utf8"));
  return Buffer.concat(parts).toString("utf8");
}
