// The one error root: every failure panescope reports carries a machine-readable `kind`
// (callers switch on it, never on message text) and a message that says what to do next.

export type ErrorKind =
  | "tmux-missing" // the tmux binary cannot be run
  | "tmux-unsupported" // the tmux binary is older than panescope supports (see docs/tmux-versions.md)
  | "no-server" // no tmux server on the chosen socket
  | "tmux-exited" // the control client ended (server killed, %exit, attach refused)
  | "command-failed" // tmux answered %error
  | "protocol" // tmux sent something we cannot parse (line too long, bad framing)
  | "timeout" // a command or wait ran out of time
  | "aborted" // the caller's AbortSignal fired
  | "bad-input" // a caller argument is malformed (pane id, key name, number out of range)
  | "unknown-pane" // the pane does not exist on this server
  | "pane-closed" // the pane's program has ended (its screen is kept): it takes no keys
  | "cursor-malformed" // a cursor that does not decode
  | "cursor-tampered" // a cursor whose authentication tag does not match
  | "cursor-other-pane" // a genuine cursor, but for a different pane than asked
  | "cursor-other-server" // a genuine cursor, but made for another tmux server (another socket)
  | "not-allowed" // refused by policy (read-only mode, our own pane)
  | "daemon" // the shared observer daemon cannot be reached, went away, or speaks another protocol
  | "golden" // golden-file testing: mismatch, missing golden under CI, bad tape
  | "internal"; // a bug in panescope: report it

export class PanescopeError extends Error {
  readonly kind: ErrorKind;
  /** What to do next, where it is not what every error of its kind is told (mcp/results.ts). */
  readonly advice: string | undefined;

  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown; advice?: string }) {
    super(message, options);
    this.name = "PanescopeError";
    this.kind = kind;
    this.advice = options?.advice;
  }
}

export function isPanescopeError(error: unknown, kind?: ErrorKind): error is PanescopeError {
  return error instanceof PanescopeError && (kind === undefined || error.kind === kind);
}

/** The message of any thrown value, for logs and tool results. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
