// `panescope record`: watches one pane in-process (its own TmuxServer and Hub, as the MCP server
// builds them) and writes what it shows as an asciicast v2 file, line by line, so a recording cut
// short by a kill is still a valid cast up to its last event.
import { closeSync, openSync, writeSync } from "node:fs";
import { isPanescopeError, messageOf } from "../errors.js";
import type { Env } from "../options.js";
import { TmuxServer } from "../tmux/server.js";
import { CastRecorder } from "../evidence/recorder.js";
import { parseRecord, RECORD_HELP, type RecordOptions } from "./options.js";

/** The TERM programs in the pane were given: what the cast's output is written for. */
async function paneTerm(server: TmuxServer): Promise<string> {
  const [term] = await server.run(["show-options", "-gv", "default-terminal"]).catch(() => []);
  return term || "tmux-256color";
}

/** Records until the pane closes, the duration passes or `stop` aborts; resolves with a summary line. */
export async function record(options: RecordOptions, stop: AbortSignal): Promise<string> {
  const server = new TmuxServer(options.server);
  await server.requireSupported();
  const { Hub } = await import("../watch/hub.js");
  const { pollProbe } = await import("../watch/fallback/poll.js");
  const hub = new Hub({ server, warn: (line) => void process.stderr.write(`${line}\n`) });
  const fd = openSync(options.output, "w");
  const started = performance.now();
  let ended: (why: string) => void = () => undefined;
  const end = new Promise<string>((resolve) => (ended = resolve));
  try {
    const paneId = await hub.resolvePane(options.paneId, undefined);
    const observer = await hub.observer(paneId);
    const term = await paneTerm(server);
    const recorder = new CastRecorder({
      clock: () => performance.now() / 1000,
      sink: (line) => void writeSync(fd, line),
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
    if (stop.aborted) ended("stopped");
    const why = await end;
    clearTimeout(timer);
    untap();
    recorder.end();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return `recorded ${paneId} to ${options.output}: ${recorder.count} events in ${seconds} s (${why})`;
  } finally {
    closeSync(fd);
    await hub.close();
  }
}

/** `panescope record …`: the exit status. */
export async function run(argv: readonly string[], env: Env): Promise<number> {
  let options: RecordOptions | "help";
  try {
    options = parseRecord(argv, env);
  } catch (error) {
    process.stderr.write(`panescope: ${messageOf(error)}\n`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(`${RECORD_HELP}\n`);
    return 0;
  }
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  // on, not once: a once listener is gone when the signal is delivered, and execa's signal-exit then
  // finds itself the only listener and kills the process with the signal (signal-exit 4.1).
  process.on("SIGINT", abort);
  process.on("SIGTERM", abort);
  try {
    process.stderr.write(`panescope: ${await record(options, stop.signal)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`panescope: ${isPanescopeError(error) ? `${error.kind}: ` : ""}${messageOf(error)}\n`);
    return 2;
  } finally {
    process.off("SIGINT", abort);
    process.off("SIGTERM", abort);
  }
}
