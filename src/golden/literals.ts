// The literal syntax of tape statements: words, JSON-quoted strings, /regex/flags literals, sizes
// (80x24) and durations (300ms, 1.5s). Pure; errors are `Fail` values the tape parser locates.

/** Columns and rows of a terminal. */
export interface Size {
  cols: number;
  rows: number;
}

const MAX_MS = 600_000;

/** A syntax problem in one statement; the tape parser adds file:line and the accepted form. */
export class Fail {
  constructor(readonly what: string) {}
}

/** A cursor over the rest of one statement. */
export class Scanner {
  constructor(
    readonly text: string,
    public pos = 0,
  ) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? "")) this.pos++;
  }
  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }
  word(what: string): string {
    this.skipSpace();
    const m = /^\S+/.exec(this.text.slice(this.pos));
    if (m === null) throw new Fail(`missing ${what}`);
    this.pos += m[0].length;
    return m[0];
  }
  /** A JSON string literal: the same escapes as JSON, nothing else. */
  quoted(what: string): string {
    this.skipSpace();
    if (this.text[this.pos] !== '"') throw new Fail(`${what} must be a "quoted string"`);
    let i = this.pos + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === "\\" ? 2 : 1;
    if (i >= this.text.length) throw new Fail(`unterminated string in ${what}`);
    const literal = this.text.slice(this.pos, i + 1);
    this.pos = i + 1;
    try {
      return JSON.parse(literal) as string;
    } catch {
      throw new Fail(`bad escape in ${what} ${literal.slice(0, 40)} (JSON escapes only: \\" \\\\ \\n \\t \\uXXXX)`);
    }
  }
  /** A /regex/flags literal; `/` inside [classes] or after `\` does not end it. */
  regex(what: string): RegExp {
    this.skipSpace();
    if (this.text[this.pos] !== "/") throw new Fail(`${what} must be a /regex/`);
    let i = this.pos + 1;
    let inClass = false;
    for (; i < this.text.length; i++) {
      const c = this.text[i];
      if (c === "\\") i++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
    }
    if (i >= this.text.length) throw new Fail(`unterminated /regex/ in ${what}`);
    const source = this.text.slice(this.pos + 1, i);
    const flags = /^[a-z]*/.exec(this.text.slice(i + 1))?.[0] ?? "";
    this.pos = i + 1 + flags.length;
    if (source === "") throw new Fail(`empty /regex/ in ${what}`);
    if (!/^[imsu]*$/.test(flags)) throw new Fail(`regex flags may be i m s u, not "${flags}"`);
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new Fail(`invalid regex /${source}/: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  end(): void {
    if (!this.atEnd()) throw new Fail(`unexpected ${JSON.stringify(this.text.slice(this.pos, this.pos + 30))}`);
  }
}

export function parseSize(text: string): Size {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(text);
  const cols = Number(m?.[1]);
  const rows = Number(m?.[2]);
  if (m === null || cols < 1 || rows < 1 || cols > 1000 || rows > 1000) throw new Fail(`bad size "${text}"`);
  // xterm's own minimum: a 1-column pane would fail only after the run waited for the emulator to match it.
  if (cols < 2) throw new Fail(`bad size "${text}": a terminal has at least 2 columns here (xterm's minimum)`);
  return { cols, rows };
}

export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (m === null) throw new Fail(`bad duration "${text}" (write 300ms or 1.5s)`);
  const ms = Math.round(Number(m[1]) * (m[2] === "s" ? 1000 : 1));
  if (ms > MAX_MS) throw new Fail(`duration ${text} is over ${MAX_MS / 60_000} minutes`);
  return ms;
}
