// How long panescope waits for tmux, in one place. A stopped (SIGSTOP) or wedged tmux server
// answers nothing: every command needs a limit that turns into a clear `timeout` error.

/**
 * How long tmux may take to answer a command that gives no limit of its own: a one-shot command
 * (`tmux list-panes`, `send-keys`, …; killed then), a control-client command, and a control
 * client's attach. A healthy server answers in milliseconds; this is for a stopped or wedged one.
 * `TmuxServerOptions.commandTimeoutMs` sets it per server.
 */
export const TMUX_TIMEOUT_MS = 10_000;

/** The short questions the watchers ask (probes, liveness, follow, the polling fallback). */
export const PROBE_TIMEOUT_MS = 5_000;

/**
 * Closing a control client: tmux lets it go once it reads the end of its stdin; after this long the
 * client gets SIGTERM, and this long after that panescope stops waiting for its end and leaves it
 * (ControlClient.close): a server that is stopped or wedged never lets it go (docs/faults.md).
 */
export const CLIENT_TERM_AFTER_MS = 2_000;
export const CLIENT_LEAVE_AFTER_MS = 3_000;

/** What a timeout's message says to do: a stopped server answers nothing, a busy one answers late. */
export const STOPPED_HINT = "the server may be stopped (SIGSTOP, a debugger) or overloaded; check it (ps -o stat= -p PID shows T when stopped, kill -CONT PID resumes it) and try again";
