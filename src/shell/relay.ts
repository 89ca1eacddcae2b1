// `panescope mcp --shared`: the stdio MCP server as a relay to the tmux server's shared daemon. No
// hub here: every agent's calls reach one watcher (one control client per session, one emulator
// per pane). Lines are passed through as they are; the daemon frames and answers them. The end of
// stdin is passed on as an END notification (the daemon answers what it read, then closes), so the
// end of the connection tells the daemon the relay is gone (killed: its calls are cancelled); a
// daemon that goes away ends the relay with a line on stderr.
import type { McpOptions } from "../options.js";
import { messageOf } from "../errors.js";
import { version } from "../version.js";
import { callerCwd, daemonPaths } from "./paths.js";
import { END } from "./protocol.js";
import { callerPane } from "./reader.js";
import { reachDaemon } from "./start.js";

const say = (line: string): void => void process.stderr.write(`panescope: ${line}\n`);

export async function relay(options: McpOptions): Promise<number> {
  const paths = daemonPaths(options.server, process.env);
  const ownPane = callerPane(process.env);
  let connected: Awaited<ReturnType<typeof reachDaemon>>;
  try {
    // Its directory goes with it: open_pane starts there, as a server of its own would (the daemon runs in /).
    const cwd = callerCwd();
    connected = await reachDaemon(paths, { choice: options.server }, { readOnly: options.readOnly, maxWaitMs: options.maxWaitMs, endNotice: true, ...(ownPane === undefined ? {} : { ownPane }), ...(cwd === undefined ? {} : { cwd }) });
  } catch (error) {
    say(`${messageOf(error)} (or run without --shared / PANESCOPE_SHARED: a server of its own)`);
    return 1;
  }
  const { connection, welcome } = connected;
  process.stderr.write(
    `panescope ${version}: MCP on stdio through the shared daemon pid ${welcome.pid} (panescope ${welcome.version}), tmux server -S ${paths.tmuxSocket}, ${options.readOnly ? "read-only" : "read-write"}, wait cap ${options.maxWaitMs} ms\n`,
  );
  connection.onLine = (line) => void process.stdout.write(`${line}\n`);
  const socket = connection.socket;
  let stdinEnded = false;
  // A daemon older than the END notice is told by the end of our side instead.
  const notice = welcome.endNotice === true;
  /** The last byte passed on ended a line; else the notice ends it first (it is then answered, or refused, as any line). */
  let atLineStart = true;
  process.stdin.on("data", (chunk: Buffer) => {
    if (chunk.length > 0) atLineStart = chunk[chunk.length - 1] === 0x0a;
  });
  process.stdin.on("end", () => {
    stdinEnded = true;
    if (notice) socket.write(`${atLineStart ? "" : "\n"}${JSON.stringify({ jsonrpc: "2.0", method: END })}\n`);
  });
  process.stdin.pipe(socket, { end: !notice });
  await new Promise<void>((resolve) => socket.once("close", () => resolve()));
  if (!stdinEnded) {
    say(`the shared daemon (pid ${welcome.pid}) went away: restart this MCP server (a new daemon starts)`);
    return 1;
  }
  say("stdin closed, bye");
  return 0;
}
