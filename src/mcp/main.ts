// `panescope [mcp]`: the stdio MCP server. stdout is the protocol, so every log line goes to stderr;
// the first one names the tmux server and the mode. Resolves when the client closes stdin.
import { isPanescopeError, messageOf } from "../errors.js";
import type { McpOptions } from "../options.js";
import { TmuxServer, type TmuxServerOptions } from "../tmux/server.js";
import type { ReadPublisher } from "../watch/publisher.js";
import { version } from "../version.js";
import type { HandshakeAnswer } from "./handshake.js";
import type { AnswerSink } from "./stdio-transport.js";

export function describeServer(options: TmuxServerOptions): string {
  if (options.socketPath !== undefined) return `-S ${options.socketPath}`;
  if (options.socketName !== undefined) return `-L ${options.socketName}`;
  return "default socket";
}

/**
 * Neither an old nor a missing tmux stops the server: every tool says what to install (an exit
 * here reaches an MCP client only as "Connection closed"). The reason goes to stderr too.
 */
async function tmuxLabel(server: TmuxServer, log: (line: string) => void): Promise<string> {
  return server.requireSupported().then(
    (found) => `tmux ${found.label}`,
    (error: unknown) => {
      if (isPanescopeError(error, "tmux-unsupported")) {
        log(error.message);
        return "tmux unsupported (every tool answers tmux-unsupported)";
      }
      return `tmux unknown (${messageOf(error)})`;
    },
  );
}

/** The handshake's server (handshake.ts), for the front of the split server: loaded with this face. */
export async function handshake(options: McpOptions, write: (line: string) => void): Promise<HandshakeAnswer> {
  return (await import("./handshake.js")).handshake(options, write);
}

/**
 * Options come parsed (src/options.ts); resolves with the exit code once the client has gone.
 * `publisher`: where watched panes are published for reads answered on another thread (engine/),
 * `answers` where that thread's answers go (engine/shared-stdout.ts), and `transcriptFd` the
 * --transcript file as that thread opened it. `stopping`: aborted when the process is told to stop
 * (the engine thread hears of it from the front; in one thread, SIGTERM and SIGINT abort it here).
 */
export async function main(options: McpOptions, publisher?: ReadPublisher, answers?: AnswerSink, transcriptFd?: number, stopping?: AbortSignal): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`panescope: ${line}\n`);
  // The hub's lines name panescope already ("panescope: following %3: …").
  const hubWarn = (line: string): void => void process.stderr.write(`${line}\n`);
  const server = new TmuxServer(options.server);
  // Loaded here, not by cli.ts's import of this file: the hub, the SDK and zod are most of start-up.
  const [{ Hub }, { createServer }, { StdioTransport }, { connectRouted }, { serverOptions }] = await Promise.all([
    import("../watch/hub.js"),
    import("./server.js"),
    import("./stdio-transport.js"),
    import("./request-route.js"),
    import("./handshake.js"),
  ]);
  // Loaded only when asked for: the server's start-up stays as it was without --transcript.
  const transcript = options.transcript === undefined ? undefined : (await import("./transcript.js")).Transcript.open(options.transcript, log, transcriptFd);
  // The engine thread may have heard "stop" while this file loaded (its stdin ends then too).
  const stop = new AbortController();
  if (stopping?.aborted === true) stop.abort();
  else stopping?.addEventListener("abort", () => stop.abort(), { once: true });
  const hub = new Hub({ server, warn: hubWarn, maxPanes: options.maxPanes, ...(publisher ? { publisher } : {}) });
  // tmux is asked at the first tool call, not at start: initialize and tools/list need no tmux (nor
  // execa, which runs it), and spawning it meanwhile cost start-up ≈ 12% (issue 28).
  let tmuxSaid: Promise<void> | undefined;
  const sayTmux = (): Promise<void> => (tmuxSaid ??= tmuxLabel(server, log).then(log));
  const mcp = createServer({
    ...serverOptions(options, hub, server),
    stopping: stop.signal,
    // The first call asks tmux its version (each tool waits for that answer before it runs:
    // server.ts) and says it on stderr, before the call's own lines.
    wrapToolCall: (handler) => {
      const call = transcript ? transcript.wrap(handler) : handler;
      return (request, extra) => {
        void sayTmux();
        return call(request, extra);
      };
    },
  });
  // The engine thread's answers go to the front, which says when the client stops reading them.
  const transport = new StdioTransport(process.stdin, answers ?? process.stdout, { warn: log, sayNotReading: answers === undefined });
  // Set before connect: the SDK keeps (and calls) an onclose that is already there.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  const close = (): void => void mcp.close().catch(() => undefined);
  // The end of stdin ends the server once the requests read before it are answered (StdioTransport).
  // A signal ends it as that does, in a moment: its waits answer at once (a supervisor kills a
  // server that lingers after SIGTERM, and its last calls with it). Kept, not once: execa's exit
  // handler re-raises a signal that no other listener hears, and the process died of it unanswered.
  stop.signal.addEventListener("abort", () => transport.endOfRequests(), { once: true });
  const signalled = (): void => stop.abort();
  process.stdout.on("error", close);
  process.on("SIGINT", signalled);
  process.on("SIGTERM", signalled);
  await connectRouted(mcp, transport);
  process.stderr.write(`panescope ${version}: MCP on stdio, tmux server ${describeServer(options.server)}, ${options.readOnly ? "read-only" : "read-write"}, wait cap ${options.maxWaitMs} ms\n`);
  await closed;
  await tmuxSaid;
  await hub.close();
  transcript?.close();
  log(stop.signal.aborted ? "told to stop, bye" : "stdin closed, bye");
  return 0;
}
