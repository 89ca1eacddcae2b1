// The words that name a shell command (read, wait, send, list, open, close, shot) and the daemon, alone in
// a module that imports nothing: cli.ts tells a shell command from the others with it before it
// loads any option model, so `panescope read` goes straight to the shell client (issue 26).

export type ShellCommandName = "read" | "wait" | "send" | "list" | "open" | "close" | "shot";
export const SHELL_COMMANDS: readonly ShellCommandName[] = ["read", "wait", "send", "list", "open", "close", "shot"];

export function isShellCommand(word: string | undefined): word is ShellCommandName | "daemon" {
  return word !== undefined && (word === "daemon" || (SHELL_COMMANDS as readonly string[]).includes(word));
}
