// What every command's option parsing shares: the environment rules (an empty variable is unset,
// booleans in words), the tmux server choice (-L/-S/--tmux and their variables), one help line
// per option, and argv read with node:util parseArgs into tokens in the order given, each checked
// so the message names the flag and the fix. Pure: argv and env in, values or a bad-input error out.
import { util } from "../builtins.js";
import { PanescopeError } from "../errors.js";

export type Env = Readonly<Record<string, string | undefined>>;

/** The default cap on waits; mcp/server.ts has the same default for library callers (a test checks). */
export const MAX_WAIT_DEFAULT_MS = 30_000;
export const MAX_WAIT_LIMIT_MS = 3_600_000;
/** The default cap on watched panes; watch/settings.ts has the same default for library callers (a test checks). */
export const MAX_PANES_DEFAULT = 500;
const MAX_PANES_LIMIT = 100_000;

/** --max-panes N, else PANESCOPE_MAX_PANES: a whole number from 1 to 100000, or undefined (the default). */
export function paneCap(flag: string | undefined, env: Env, fail: (what: string) => Error): number | undefined {
  const value = flag ?? envValue(env, "PANESCOPE_MAX_PANES");
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_PANES_LIMIT) {
    throw fail(`${flag === undefined ? "PANESCOPE_MAX_PANES" : "--max-panes"} must be a whole number from 1 to ${MAX_PANES_LIMIT}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export interface OptionSpec {
  short?: string;
  /** Placeholder of the value; absent for a boolean flag. */
  value?: string;
  env?: string;
  help: string;
  /** May be given more than once (kept in order). */
  repeats?: boolean;
}

export const BOOLEAN_WORDS = "1/true/yes/on or 0/false/no/off";

/** A boolean from the environment: 1/true/yes/on or 0/false/no/off, any case; anything else is refused. */
export function parseBoolean(value: string, name: string): boolean {
  const word = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(word)) return true;
  if (["0", "false", "no", "off"].includes(word)) return false;
  throw new PanescopeError("bad-input", `${name} must be ${BOOLEAN_WORDS}, got ${JSON.stringify(value)}`);
}

/** An environment variable set to something; an empty value counts as unset (`NAME= cmd`). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
}

/** A boolean environment variable; unset or empty is false. */
export function envBoolean(env: Env, name: string): boolean {
  const value = envValue(env, name);
  return value === undefined ? false : parseBoolean(value, name);
}

/** The server options every tmux-facing command takes (specs for -L, -S, --tmux). */
export const SERVER_OPTIONS = {
  socket: { short: "L", value: "NAME", env: "PANESCOPE_SOCKET", help: "the tmux server of `tmux -L NAME`" },
  "socket-path": { short: "S", value: "PATH", env: "PANESCOPE_SOCKET_PATH", help: "the tmux server of `tmux -S PATH`" },
  tmux: { value: "PATH", env: "PANESCOPE_TMUX", help: "the tmux binary (default: tmux on PATH)" },
} as const satisfies Record<string, OptionSpec>;

export interface ServerSelection {
  tmux?: string;
  socketName?: string;
  socketPath?: string;
}

/** -L/-S/--tmux from flags, else their variables; `fail` phrases a conflict for the command. */
export function serverSelection(flags: { socket?: string | undefined; socketPath?: string | undefined; tmux?: string | undefined }, env: Env, fail: (what: string) => Error): ServerSelection {
  if (flags.socket !== undefined && flags.socketPath !== undefined) throw fail("-L/--socket and -S/--socket-path both name a tmux server: give one");
  const tmux = flags.tmux ?? envValue(env, "PANESCOPE_TMUX");
  const server: ServerSelection = tmux === undefined ? {} : { tmux };
  if (flags.socket !== undefined) return { ...server, socketName: flags.socket };
  if (flags.socketPath !== undefined) return { ...server, socketPath: flags.socketPath };
  const envName = envValue(env, "PANESCOPE_SOCKET");
  const envPath = envValue(env, "PANESCOPE_SOCKET_PATH");
  if (envName !== undefined && envPath !== undefined) {
    throw fail("PANESCOPE_SOCKET and PANESCOPE_SOCKET_PATH are both set and name two servers: unset one, or pass -L or -S (a flag wins)");
  }
  if (envName !== undefined) return { ...server, socketName: envName };
  if (envPath !== undefined) return { ...server, socketPath: envPath };
  return server;
}

export function flagOf(name: string, spec: OptionSpec): string {
  return spec.short === undefined ? `--${name}` : `-${spec.short}/--${name}`;
}

/** One help line: flags, value placeholder, help, and the variable that stands in for it. */
export function optionLine(name: string, spec: OptionSpec): string {
  const flags = `${spec.short === undefined ? "    " : `-${spec.short}, `}--${name}${spec.value === undefined ? "" : ` ${spec.value}`}`;
  const env = spec.env === undefined ? "" : `; env ${spec.env}`;
  return `  ${flags.padEnd(24)} ${spec.help}${env}`;
}

export interface Token {
  name: string;
  /** A flag's value, or true for a boolean flag. */
  value: string | true;
  rawName: string;
}

export interface Tokens {
  /** Options in the order given (send's --text and --key are typed in that order). */
  options: Token[];
  positionals: string[];
  help: boolean;
}

/**
 * argv in parseArgs' lenient mode, then checked: unknown flags, refused flags (with the reason), a
 * flag given twice unless it repeats, a boolean with a value, a missing value (`--socket --x` is a
 * forgotten value; `--socket=-x` allows a leading dash). Everything after `--` is positional.
 */
export function readTokens(
  args: readonly string[],
  specs: Readonly<Record<string, OptionSpec>>,
  refuses: Readonly<Record<string, { spec: OptionSpec; reason: string }>>,
  fail: (what: string) => Error,
  label: string,
): Tokens {
  const all: Record<string, OptionSpec> = { ...Object.fromEntries(Object.entries(refuses).map(([name, r]) => [name, r.spec])), ...specs };
  const options = Object.fromEntries(
    Object.entries(all).map(([name, spec]) => [name, { type: spec.value === undefined ? "boolean" : "string", ...(spec.short ? { short: spec.short } : {}) }]),
  ) as Record<string, { type: "string" | "boolean"; short?: string }>;
  const { tokens } = util.parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const out: Tokens = { options: [], positionals: [], help: false };
  if (tokens.some((t) => t.kind === "option" && t.name === "help")) return { ...out, help: true };
  for (const token of tokens) {
    if (token.kind === "positional") out.positionals.push(token.value);
    if (token.kind !== "option") continue;
    const spec = specs[token.name];
    const refusal = refuses[token.name];
    if (refusal !== undefined) throw fail(`${token.rawName}: ${refusal.reason}`);
    if (spec === undefined) throw fail(`unknown option ${token.rawName} for ${label}`);
    if (!spec.repeats && out.options.some((o) => o.name === token.name)) throw fail(`${flagOf(token.name, spec)} is given twice: give it once`);
    if (spec.value === undefined) {
      if (token.value !== undefined) throw fail(`${token.rawName} takes no value, got ${JSON.stringify(token.value)}`);
      out.options.push({ name: token.name, value: true, rawName: token.rawName });
      continue;
    }
    const value = token.value;
    if (value === undefined) throw fail(`${token.rawName} needs a value: ${token.rawName} ${spec.value}`);
    if (value === "") throw fail(`${token.rawName} was given an empty value: ${token.rawName} ${spec.value}`);
    // The next word is taken as a value only when it cannot be the next flag: `--text --key Enter`
    // is a text left out. A value that starts with "-" (`--timeout -5`, `--text -x`) goes after "=".
    // `-o=x.cast` is `-o` with the value "=x.cast" (as getopt reads it): never what was meant.
    if (token.inlineValue && /^-[^-]/.test(token.rawName) && value.startsWith("=")) throw fail(`${token.rawName}${value}: a short flag's value follows it after a space: ${token.rawName} ${value.slice(1)} (or --${token.name}=${value.slice(1)})`);
    if (!token.inlineValue && value.startsWith("-")) throw fail(`${token.rawName} needs a value: ${token.rawName} ${spec.value} (a value that starts with "-" goes after "=": ${token.rawName}=${value})`);
    out.options.push({ name: token.name, value, rawName: token.rawName });
  }
  return out;
}

/** The last value of a string option, if given. */
export function valueOf(tokens: Tokens, name: string): string | undefined {
  const found = tokens.options.findLast((o) => o.name === name)?.value;
  return typeof found === "string" ? found : undefined;
}

export function flagGiven(tokens: Tokens, name: string): boolean {
  return tokens.options.some((o) => o.name === name);
}
