// How a pane's program ended, as tmux records it: #{pane_dead_status} (a number, empty while the
// pane lives or when it was killed by a signal) and #{pane_dead_signal} (a number or name; empty on
// tmux 3.2a, which has no such format, and "0" when there was none). Pure: two strings in.

export interface TmuxExit {
  status?: number;
  signal?: string;
}

/** The exit tmux recorded, or undefined when it recorded neither a status nor a signal. */
export function parseExit(status: string | undefined, signal: string | undefined): TmuxExit | undefined {
  const exit: TmuxExit = {};
  if (status !== undefined && /^\d+$/.test(status)) exit.status = Number(status);
  if (signal !== undefined && signal !== "" && signal !== "0") exit.signal = signal;
  return exit.status === undefined && exit.signal === undefined ? undefined : exit;
}
