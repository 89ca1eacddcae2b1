// A command whose reader may go away (`panescope golden | head -2`): stdout's errors go to the run
// that is current. One listener for the process, never removed: Node reports an EPIPE a tick after
// the write that met it, so the EPIPE of a run's last lines arrives after the run has returned, and
// an `error` with no listener is a stack trace and exit 1 (golden, 17 runs in 18; the demo, every
// time, its tmux server left running).

let current: (() => void) | undefined;

/** From now on, an error on stdout calls `gone` (replacing what an earlier run gave). */
export function onReaderGone(gone: () => void): void {
  if (current === undefined) process.stdout.on("error", () => current?.());
  current = gone;
}
