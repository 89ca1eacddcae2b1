// The shell commands from argv to exit status: parse (the shell commands' own option model), then
// one call through the daemon. cli.ts's fast path for `panescope read|wait|send|list|open|close|shot`;
// built, it is one file with what it imports, dist/faces/shell-entry.js (scripts/bundle-cli.mjs).
import { isPanescopeError } from "../errors.js";
import { parseShellCommand, type ShellParsed } from "../options/shell.js";
import type { ShellCommandName } from "../options/shell-words.js";
import { main } from "./main.js";

/**
 * Runs `panescope <name> <args>`: the exit status, or what cli.ts runs itself (help, and the
 * daemon, which is not the client's to load). A usage error is said on stderr: status 2.
 */
export async function run(name: ShellCommandName | "daemon", args: readonly string[], env: NodeJS.ProcessEnv): Promise<number | Exclude<ShellParsed, { kind: "shell" }>> {
  let parsed: ShellParsed;
  try {
    parsed = parseShellCommand(name, args, env);
  } catch (error) {
    if (!isPanescopeError(error, "bad-input")) throw error;
    process.stderr.write(`panescope: ${error.message}\n`);
    return 2;
  }
  return parsed.kind === "shell" ? main(parsed.command) : parsed;
}
