// What a tmux version prints for a format, reimplemented from its source for pure tests: the
// `#{s/[\\]/\\\\/:name}` substitution (regsub.c), vis(3) as compat/vis.c + utf8.c write it
// (`utf8_strvis`), and which versions escape command output (server_client_print in 3.4, 3.5)
// or store names encoded (clean_name in 3.7). The integration tests check the same on real tmux.

import { TmuxVersion } from "../../src/tmux/version.js";

export type Version = "3.2a" | "3.3a" | "3.4" | "3.5a" | "3.6a" | "3.7c";
export const VERSIONS: readonly Version[] = ["3.2a", "3.3a", "3.4", "3.5a", "3.6a", "3.7c"];

const VIS_TAB = 1;
const VIS_NL = 2;
const VIS_NOSLASH = 4;
const OLD_DOLLAR = 8; // utf8_strvis before 3.5 escapes `$` before a letter, `_` or `{` always

const CSTYLE: Record<number, string> = { 10: "n", 13: "r", 8: "b", 7: "a", 11: "v", 9: "t", 12: "f", 0: "0" };

/** utf8_strvis(VIS_OCTAL|VIS_CSTYLE|flags) on the UTF-8 bytes of `text`. */
export function vis(text: string, flags: number): string {
  const bytes = Buffer.from(text, "utf8");
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    if (c >= 0x80) {
      // Valid UTF-8 (all our tests use) is copied whole.
      const size = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      out.push(bytes.subarray(i, i + size).toString("utf8"));
      i += size - 1;
      continue;
    }
    const next = bytes[i + 1];
    const ch = String.fromCharCode(c);
    if (ch === "$" && flags & OLD_DOLLAR && next !== undefined && /[A-Za-z_{]/.test(String.fromCharCode(next))) {
      out.push("\\$");
      continue;
    }
    const visible = (c > 0x20 && c < 0x7f) || c === 0x20 || (c === 9 && !(flags & VIS_TAB)) || (c === 10 && !(flags & VIS_NL));
    if (visible) {
      out.push(ch === "\\" && !(flags & VIS_NOSLASH) ? "\\\\" : ch);
    } else if (CSTYLE[c] !== undefined) {
      out.push(c === 0 && next !== undefined && next >= 0x30 && next <= 0x37 ? "\\000" : `\\${CSTYLE[c]}`);
    } else {
      out.push(`\\${c.toString(8).padStart(3, "0")}`);
    }
  }
  return out.join("");
}

const NAME_FLAGS = VIS_TAB | VIS_NL;

/** How tmux stores a title or command name the program set (clean_name, 3.7+). */
export function stored(value: string, version: Version, programText: boolean): string {
  return programText && version === "3.7c" ? vis(value, NAME_FLAGS) : value;
}

/** A session name as tmux stores it: session_check_name (`:` and `.` become `_`), clean_name in 3.7. */
export function storedSessionName(name: string, version: Version | TmuxVersion): string {
  const tmux = typeof version === "string" ? TmuxVersion.parse(`tmux ${version}`) : version;
  const dollar = tmux.atLeast(3, 5) ? 0 : OLD_DOLLAR;
  // 3.7 replaced session_check_name with clean_name: `:` and `.` are kept.
  return vis(tmux.atLeast(3, 7) ? name : name.replace(/[:.]/g, "_"), NAME_FLAGS | dollar);
}

/** The line(s) `display -p FORMAT` prints, given the stored value of each variable. */
export function tmuxPrints(format: string, values: Record<string, string>, version: Version): string[] {
  const field = /#\{s\/\[\\\\\]\/\\\\\\\\\/:([\w@]+)\}/g;
  if (format.replace(field, "").includes("#{")) throw new Error(`a format this helper cannot expand: ${format}`);
  const expanded = format.replace(field, (_, name: string) => (values[name] ?? "").replace(/\\/g, "\\\\"));
  const printed = version === "3.4" ? vis(expanded, VIS_NOSLASH | OLD_DOLLAR) : version === "3.5a" ? vis(expanded, VIS_NOSLASH) : expanded;
  return printed.split("\n");
}
