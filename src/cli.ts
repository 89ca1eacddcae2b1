#!/usr/bin/env node
// The `panescope` command: parses argv into a command (src/options.ts), runs that face (MCP server,
// demo, golden, report, record, the shell commands and their daemon) and maps its result to an exit
// code. The only place that sees process.argv and exit. Each face is a lazy import: built, each is
// one file of its own (scripts/bundle-cli.mjs), so a command loads its face and nothing else.
import type { Command } from "./options.js";
import { isShellCommand } from "./options/shell-words.js";

/** What argv asks for, or the exit status of a shell command already run. A shell command word never loads the other commands' option tables and help. */
async function commandOf(argv: string[]): Promise<Command | number> {
  const [first, ...rest] = argv;
  if (isShellCommand(first)) return (await import("./shell/entry.js")).run(first, rest, process.env);
  const [{ isPanescopeError }, { parseCommand }] = await Promise.all([import("./errors.js"), import("./options.js")]);
  try {
    return parseCommand(argv, process.env, process.stdin.isTTY === true);
  } catch (error) {
    if (!isPanescopeError(error, "bad-input")) throw error;
    process.stderr.write(`panescope: ${error.message}\n`);
    return 2;
  }
}

async function main(argv: string[]): Promise<number> {
  // Parsed by its own face (src/record/options.ts), beside the option model of the other commands.
  if (argv[0] === "record" || (argv[0] === "help" && argv[1] === "record")) return (await import("./record/main.js")).run(argv[0] === "help" ? ["--help"] : argv.slice(1), process.env);
  const command = await commandOf(argv);
  if (typeof command === "number") return command;
  switch (command.kind) {
    case "help":
      process.stdout.write(`${command.text}\n`);
      return 0;
    case "version": {
      const { version } = await import("./version.js");
      process.stdout.write(`${version}\n`);
      return 0;
    }
    case "mcp":
      // A person typed `panescope` in a terminal: say what it is, then serve anyway.
      if (command.hint !== undefined) process.stderr.write(`${command.hint}\n`);
      if (command.options.shared) return (await import("./shell/relay.js")).relay(command.options);
      if (command.options.engineThread) return (await import("./mcp/engine/front.js")).serve(command.options);
      return (await import("./mcp/main.js")).main(command.options);
    case "shell":
      return (await import("./shell/main.js")).main(command.command); // not from argv: its words take the client above
    case "daemon":
      return (await import("./daemon/main.js")).main(command.options);
    case "demo":
      return (await import("./demo/main.js")).main(command.options);
    case "golden":
      return (await import("./golden/main.js")).main(command.options);
    case "report":
      return (await import("./mcp/report/main.js")).main(command.options);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    process.stderr.write(`panescope: ${(await import("./errors.js")).messageOf(error)}\n`);
    process.exitCode = 2;
  },
);
