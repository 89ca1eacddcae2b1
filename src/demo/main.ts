// `panescope demo`: the main job in a new user's first minute. Starts a private tmux server, runs
// a progress bar and a full-screen dashboard, prints successive capture_since answers (rendered
// rows beside raw output), then removes the server.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { DemoOptions } from "../options.js";
import { packageFile } from "../package-files.js";
import { onReaderGone } from "../reader-gone.js";
import { TmuxFormat } from "../tmux/format.js";
import { TmuxServer } from "../tmux/server.js";
import { Hub } from "../watch/hub.js";
import { renderDelta, wrap } from "./render.js";

/** The demo's programs, run by node in their panes: tsc's files, beside the bundled CLI. */
const program = (file: string): string => packageFile(`dist/demo/${file}`);

export async function main(options: DemoOptions = {}): Promise<number> {
  const name = `panescope-demo-${process.pid}-${randomBytes(3).toString("hex")}`;
  const server = new TmuxServer({ socketName: name, tmux: options.tmux });
  await server.requireSupported();
  const columns = process.stdout.columns ?? 100;
  // A reader that goes away (`panescope demo | head`) must not skip the cleanup below.
  let stdoutOpen = true;
  // The demo goes on to its cleanup with nobody reading (`panescope demo | head`).
  onReaderGone(() => void (stdoutOpen = false));
  const out = (text = ""): void => void (stdoutOpen && process.stdout.write(`${text}\n`));
  const say = (text: string): void => out(wrap(text, columns, "").join("\n"));
  const hub = new Hub({ server, warn: (message) => process.stderr.write(`${message}\n`) });
  let socket: string | undefined;
  // The server's first command: a cleanup that a signal starts meanwhile waits for it, or tmux
  // would start the server after kill-server (or leave its socket file, unnamed yet).
  let starting: Promise<unknown> | undefined;
  let cleaning: Promise<void> | undefined;
  // Once: a signal's cleanup and the finally below share it.
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      await starting?.catch(() => undefined);
      await hub.close().catch(() => undefined);
      await server.run(["kill-server"]).catch(() => undefined);
      // tmux 3.3a leaves its socket file behind after kill-server.
      if (socket) rmSync(socket, { force: true });
    })());
  // 128 + the signal, as a shell reports it; nothing more is printed once stopping.
  const onInterrupt = (): void => stopWith(130);
  const onTerminate = (): void => stopWith(143);
  const stopWith = (status: number): void => {
    stdoutOpen = false;
    void cleanup().then(() => process.exit(status));
  };
  // on, not once: a once listener is gone when the signal is delivered, and execa's signal-exit then
  // finds itself the only listener and kills the process with the signal, server left running
  // (signal-exit 4.1; as in src/record/main.ts).
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  try {
    say(`panescope demo: a private tmux server (-L ${name}) with two panes.`);
    say("Each answer shows the rendered rows that changed and the raw output stream since the last read.");
    out();
    const pane = new TmuxFormat({ id: "pane_id", pid: "pane_pid", socket: "socket_path" });
    const first = server.query([
      "-f", "/dev/null", "new-session", "-d", "-P", "-F", pane.text, "-s", "demo", "-x", "100", "-y", "12",
      "--", process.execPath, program("progress.js"),
    ], pane);
    starting = first;
    const [progress] = await first;
    if (!progress) throw new Error("tmux did not report the demo's first pane");
    socket = progress.socket;
    await server.sizeNewSession(progress.id, 100, 12);
    const [dashboard] = await server.query([
      "new-window", "-d", "-P", "-F", pane.text, "-t", "demo", "--", process.execPath, program("dashboard.js"),
    ], pane);
    if (!dashboard) throw new Error("tmux did not report the demo's second pane");
    const progressPane = progress.id;
    const dashboardPane = dashboard.id;

    const cursors = new Map<string, string>();
    // Programs take a moment to start: wait (event-driven) until each has painted something.
    const painted = async (pane: string, text: string): Promise<void> => {
      let delta = await hub.capture({ paneId: pane });
      for (let i = 0; i < 50 && !delta.rows.some((row) => row.text.includes(text)); i++) {
        const next = await hub.capture({ cursor: delta.cursor, waitMs: 200 });
        if (next.rows.some((row) => row.text.includes(text))) break;
        delta = next;
      }
    };
    await painted(progressPane, "fetch");
    await painted(dashboardPane, "tick");
    const show = async (pane: string, title: string, waitMs = 0): Promise<void> => {
      const cursor = cursors.get(pane);
      const delta = await hub.capture({ paneId: pane, ...(cursor ? { cursor } : {}), waitMs });
      cursors.set(pane, delta.cursor);
      out(renderDelta(title, delta, 8, columns));
      out();
    };

    await show(progressPane, "progress bar");
    process.kill(Number(progress.pid), "SIGUSR1");
    await sleep(1200);
    await show(progressPane, "progress bar, 1.2 s later: ~20 frames drawn over one row");
    await sleep(1800);
    await show(progressPane, "progress bar, finished");
    await show(dashboardPane, "dashboard, a full-screen program");
    await sleep(1000);
    await show(dashboardPane, "dashboard, 1 s later: only the rows that changed");
    await show(dashboardPane, "dashboard, waiting up to 2 s for the next repaint", 2000);
    say('An agent gets the same answers from the MCP tool capture_since (README: "Connect a client").');
    return 0;
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
    await cleanup();
  }
}
