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
