#!/usr/bin/env node
// The `panescope` command: picks a face (MCP server, demo, golden) and maps its result to an exit
// code. The only place that sees process.argv and process.exit.
import { messageOf } from "./errors.js";

const USAGE = `usage:
  panescope [mcp] [--socket NAME | --socket-path PATH] [--tmux PATH] [--read-only] [--max-wait-ms N]
                                  stdio MCP server (the default)
  panescope demo                  watch a progress bar and a full-screen program on a private tmux server
  panescope golden [--update] [--check-tmux] [--list-stale] [PATH...]
                                  run *.tape scenarios and compare their screens with golden files
  panescope --help | --version`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  switch (first) {
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case "--version":
    case "-V": {
      const { version } = await import("./version.js");
      process.stdout.write(`${version}\n`);
      return 0;
    }
    case "demo":
      return (await import("./demo/main.js")).main(rest);
    case "golden":
      return (await import("./golden/main.js")).main(rest);
    case "mcp":
      return (await import("./mcp/main.js")).main(rest);
    default:
      return (await import("./mcp/main.js")).main(argv);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`panescope: ${messageOf(error)}\n`);
    process.exitCode = 2;
  },
);
