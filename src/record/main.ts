// `panescope record`: watches one pane in-process (its own TmuxServer and Hub, as the MCP server
// builds them) and writes what it shows as an asciicast v2 file, line by line, so a recording cut
// short by a kill is still a valid cast up to its last event. The file is opened only once the
// pane is found: a recording that cannot start leaves no file, and an old one as it was.
import { closeSync, openSync, writeSync } from "node:fs";
import { isPanescopeError, messageOf, PanescopeError } from "../errors.js";
import { unwritable } from "../output-file.js";
import type { Env } from "../options.js";
import { TmuxServer } from "../tmux/server.js";
import { CastRecorder } from "../evidence/recorder.js";
import { parseRecord, RECORD_HELP, type RecordOptions } from "./options.js";

/** The TERM programs in the pane were given: what the cast's output is written for. */
async function paneTerm(server: TmuxServer): Promise<string> {
  const [term] = await server.run(["show-options", "-gv", "default-terminal"]).catch(() => []);
  return term || "tmux-256color";
}

/** The cast's file, for writing; a path that cannot be written is a bad-input error that says what to do. */
function openCast(path: string): number {
  try {
    return openSync(path, "w");
  } catch (error) {
    throw new PanescopeError("bad-input", `cannot write the cast to ${path}: ${unwritable(path, error, "pane.cast")}`, { cause: error });
  }
}

/** The line said on stderr when a recording ends. */
export function summary(paneId: string, output: string, events: number, seconds: number, why: string): string {
  return `recorded ${paneId} to ${output}: ${events} event${events === 1 ? "" : "s"} in ${seconds.toFixed(1)} s (${why})`;
}

/** Records until the pane closes, the duration passes or `stop` aborts; resolves with a summary line. */
export async function record(options: RecordOptions, stop: AbortSignal): Promise<string> {
  const server = new TmuxServer(options.server);
  await server.requireSupported();
  const { Hub } = await import("../watch/hub.js");
  const { pollProbe } = await import("../watch/fallback/poll.js");
  const hub = new Hub({ server, warn: (line) => void process.stderr.write(`${line}\n`) });
  let fd: number | undefined;
  let ended: (why: string) => void = () => undefined;
  const end = new Promise<string>((resolve) => (ended = resolve));
  try {
    // The server, the pane and its screen first: a recording that cannot start writes no file and
    // leaves one of that name as it was.
    const paneId = await hub.resolvePane(options.paneId, undefined);
    const observer = await hub.observer(paneId);
    const term = await paneTerm(server);
    // Stopped while tmux was being asked (a slow or wedged server): a file of that name stays as it was.
    if (stop.aborted) throw new PanescopeError("aborted", `stopped before the recording began: ${options.output} was not written`);
    const cast = openCast(options.output);
    fd = cast;
    const started = performance.now();
    let lost: { error: unknown; events: number; header: boolean } | undefined;
    let lines = 0;
    const recorder = new CastRecorder({
      clock: () => performance.now() / 1000,
      // One write per event, as it comes: a recording cut short by a kill is valid up to there. A
      // write that fails (a full disk, a pipe whose reader left) ends the recording here: the
      // observer would drop a tap that throws without a word, and the cast stop short unsaid.
      sink: (line) => {
        if (lost) return;
        try {
          writeSync(cast, line);
          lines++;
        } catch (error) {
          // The header is a line too, and no event: a cast whose header was not written is no cast.
          lost = { error, events: recorder.count, header: lines > 0 };
          ended("write failed");
        }
      },
      header: { timestamp: Math.floor(Date.now() / 1000), env: { TERM: term } },
      widthOf: observer.widthPolicy?.widthOf,
      onGap: (reason) => {
        if (reason === "respawned") {
          // Another program runs in the pane: the hub's next observer of it goes on in this cast.
          untap();
          hub.observer(paneId).then((next) => (untap = next.tap(recorder)), () => ended(`${paneId} is gone`));
          return;
        }
        // Lost output with no screen taken: tmux's screen as it is now follows the marker.
        pollProbe(server, paneId, 0).then((probe) => recorder.redraw(probe.state), () => undefined);
      },
      onEnd: (exit) => ended(`${paneId} closed${exit?.status !== undefined ? ` (exit ${exit.status})` : ""}`),
    });
    let untap = observer.tap(recorder);
    if (observer.closed) ended(`${paneId} closed`);
    const timer = options.duration === undefined ? undefined : setTimeout(() => ended(`${options.duration} s passed`), options.duration * 1000);
    stop.addEventListener("abort", () => ended("stopped"), { once: true });
    const why = await end;
    clearTimeout(timer);
    untap();
    recorder.end();
    if (lost) {
      const why = `cannot write the cast to ${options.output} (${messageOf(lost.error)})`;
      if (!lost.header) throw new Error(`${why}: not even its header was written, so the file is no cast; free some space or name another file with -o`);
      const events = `${lost.events} event${lost.events === 1 ? "" : "s"}`;
      throw new Error(`${why}: the recording stopped after ${events}, and the cast is valid up to there`);
    }
    return summary(paneId, options.output, recorder.count, (performance.now() - started) / 1000, why);
  } finally {
    if (fd !== undefined) closeSync(fd);
    await hub.close();
  }
}

/**
 * What went wrong, worded as the shell commands word their errors (`error (kind): …`): naming the
 * commands to run next on the server given, not the MCP tools that the hub's messages name.
 */
export function failure(error: unknown, options: RecordOptions): string {
  return isPanescopeError(error) ? `error (${error.kind}): ${advice(error, options)}` : messageOf(error);
}

function advice(error: PanescopeError, { server, paneId }: RecordOptions): string {
  const flags = server.socketPath !== undefined ? ` -S ${server.socketPath}` : server.socketName !== undefined ? ` -L ${server.socketName}` : "";
  const where = flags === "" ? "the default tmux server" : `the tmux server of${flags}`;
  switch (error.kind) {
    case "no-server":
      return `${where} is not running: start it with \`tmux${flags} new-session -d\`, or name another with -L NAME or -S PATH`;
    case "unknown-pane":
      return paneId === undefined
        ? `${where} has no active pane: name one (\`panescope list${flags}\` shows the panes there are)`
        : `no pane ${paneId} on ${where}: \`panescope list${flags}\` shows the panes there are`;
    default:
      return error.message;
  }
}

/** `panescope record …`: the exit status. */
export async function run(argv: readonly string[], env: Env): Promise<number> {
  let options: RecordOptions | "help";
  try {
    options = parseRecord(argv, env);
  } catch (error) {
    // A usage error, worded with its fix and the help to read (as other commands print theirs).
    process.stderr.write(`panescope: ${messageOf(error)}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${RECORD_HELP}\n`);
    return 0;
  }
  const stop = new AbortController();
  let status = 0;
  // The first signal ends the recording as the pane closing would, which waits for tmux to let the
  // pane go; a second ends the process at once: a tmux that does not answer (stopped, wedged) held
  // the command for ever, deaf to Ctrl-C. Each event is written as it comes, so a cast begun is
  // valid up to its last line either way.
  const abort = (signal: NodeJS.Signals): void => {
    status = signal === "SIGTERM" ? 143 : 130;
    if (!stop.signal.aborted) {
      process.stderr.write(`panescope: stopping (${signal === "SIGINT" ? "Ctrl-C" : signal} again stops at once, without waiting for tmux)\n`);
      stop.abort();
      return;
    }
    process.stderr.write(`panescope: stopped at once, without waiting for tmux; a cast begun in ${options.output} is valid up to its last event\n`);
    process.exit(status);
  };
  // on, not once: a once listener is gone when the signal is delivered, and execa's signal-exit then
  // finds itself the only listener and kills the process with the signal (signal-exit 4.1).
  process.on("SIGINT", abort);
  process.on("SIGTERM", abort);
  try {
    process.stderr.write(`panescope: ${await record(options, stop.signal)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`panescope: ${failure(error, options)}\n`);
    return isPanescopeError(error, "aborted") ? status : 2;
  } finally {
    process.off("SIGINT", abort);
    process.off("SIGTERM", abort);
  }
}
