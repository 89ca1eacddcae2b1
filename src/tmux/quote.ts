// Pure quoting for tmux's command parser: any argument arrives as exactly that one argument, and a
// line of commands can never grow a second command out of an argument's content.
//
// Verified on tmux 3.3a (control client, `set -p @x …` then `show -pv @x`):
// - Single quotes are literal but cannot hold `'` or a newline (control input is line-based: a
//   newline ends the command line). Double quotes expand `$VAR` and a leading `~` (`"~"` → $HOME),
//   keep `#{…}`, `;` and `#` literal, and understand `\\ \" \$ \~ \ooo \n`.
// So: plain words stay bare; everything else is double-quoted with `\`, `"`, `$`, `~` escaped and
// control bytes (incl. newline and DEL) written as `\ooo`. Non-ASCII passes through as UTF-8.
// NUL cannot be carried (tmux strings are C strings) and lone surrogates cannot be encoded: both
// are refused with bad-input rather than silently altered.
// Note: quoting makes "-x" one argument, but a command still reads it as a flag; put "--" first.

import { PanescopeError } from "../errors.js";

// Words tmux reads literally when bare: flags, names, numbers, targets like main:1.2.
const BARE = /^(?:--|-{0,2}[A-Za-z0-9_][A-Za-z0-9_.,:/=+@-]*)$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Quote one argument for tmux's command parser. */
export function quoteArg(arg: string): string {
  if (BARE.test(arg)) return arg;
  if (arg.includes("\0")) throw new PanescopeError("bad-input", "a tmux argument cannot contain a NUL character: remove it");
  if (LONE_SURROGATE.test(arg)) throw new PanescopeError("bad-input", "a tmux argument contains a lone UTF-16 surrogate: pass well-formed text");
  let out = '"';
  for (const ch of arg) {
    const code = ch.codePointAt(0) as number;
    if (ch === "\\" || ch === '"' || ch === "$") out += `\\${ch}`;
    else if (ch === "~") out += "\\176";
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** One command (name and arguments) as a line fragment for tmux's parser. */
export function commandLine(argv: readonly string[]): string {
  if (argv.length === 0) throw new PanescopeError("bad-input", "a tmux command needs at least its name");
  return argv.map(quoteArg).join(" ");
}

/** Several commands on one line, separated by ` ; ` (tmux runs them in order, one reply each). */
export function commandsLine(argvs: readonly (readonly string[])[]): string {
  if (argvs.length === 0) throw new PanescopeError("bad-input", "no tmux commands to send");
  return argvs.map(commandLine).join(" ; ");
}
