// The daemon's protocol, shared by both ends: newline-delimited JSON-RPC 2.0 on a unix socket.
// The first request on a connection is `panescope/hello`, answered before any MCP message, so a
// client and a daemon of different protocols find out before either reads the other's answers.
// After it the connection is an MCP session (tools/call needs no initialize on this server). A
// client may send calls right after its hello without waiting for the answer: a daemon that
// welcomes the hello's protocol serves them next, in order; one that does not refuses every later
// request on that connection (NEEDS_HELLO), so nothing sent ahead runs on a daemon of another protocol.

/** Bumped on any change a client of the previous number would misread. */
export const PROTOCOL = 1;
export const HELLO = "panescope/hello";
/** A relay's notification that its requests have ended (its stdin did): answer them, then close. */
export const END = "panescope/end";

/** The caller's pane (from its TMUX/TMUX_PANE): never typed into or killed for this connection. */
export interface CallerPane {
  paneId: string;
  serverPid?: number;
  socket?: string;
}

export interface Hello {
  protocol: number;
  version: string;
  /** Named reader: calls without a cursor continue from this reader's last cursor of the pane. */
  reader?: string;
  ownPane?: CallerPane;
  readOnly?: boolean;
  maxWaitMs?: number;
  /** The caller's directory: where open_pane starts a pane given no cwd (the daemon runs in /). */
  cwd?: string;
  /**
   * "shell": answers name the knobs their notes point at by a shell command's flags (`cut 6 rows
   * (--max-lines, …)`), not by MCP's arguments (`maxLines`). A daemon that does not know it ignores it.
   */
  terms?: "shell";
  /**
   * The client's end of the connection means it has gone, and its calls under way are cancelled
   * (a shell command: it never ends its side while an answer is due). Without it the end is only
   * the end of the requests (a relay's stdin): they are answered, then the connection closes.
   */
  endCancels?: boolean;
  /**
   * A relay's: the end of its requests comes as an END notification, so the end of the connection
   * means it has gone (killed) and its calls under way are cancelled. Heeded when the welcome says
   * `endNotice` (an older daemon does not: the relay then ends its side to say so).
   */
  endNotice?: boolean;
}

export interface Welcome {
  protocol: number;
  version: string;
  pid: number;
  /** Connections open now, this one included: a restart is safe only when it is 1. */
  clients: number;
  /** When the daemon started (ms since the epoch). */
  startedAt: number;
  /** This daemon heeds a hello's `endNotice`. */
  endNotice?: boolean;
}

export type Id = string | number;

export interface Request {
  jsonrpc: "2.0";
  id: Id;
  method: string;
  params?: Record<string, unknown>;
}

export interface Response {
  jsonrpc: "2.0";
  id: Id | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The error a daemon answers a request that came before hello, or a hello of another protocol. */
export const NEEDS_HELLO = -32001;

export function isWelcome(value: unknown): value is Welcome {
  const v = value as Partial<Welcome> | undefined;
  return typeof v === "object" && v !== null && typeof v.protocol === "number" && typeof v.pid === "number" && typeof v.clients === "number";
}
