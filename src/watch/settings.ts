// The watch's settings: what a caller may say when it makes a Hub (every field but the server
// optional), resolved once to one object with every default applied (as execa normalises its
// options), then handed whole to the starter, every watch and the quiet client.
import { loadCursorKey } from "../observe/cursor/key.js";
import { newInstanceId } from "../observe/cursor/instance.js";
import { DEFAULT_RING_CAPACITY } from "../observe/raw/ring.js";
import { DEFAULT_SCROLLBACK } from "../observe/emulator/screen.js";
import { ControlClient, type ControlClientOptions } from "../tmux/client.js";
import type { TmuxServer } from "../tmux/server.js";
import { AUDIT_INTERVAL_MS } from "./audit/timer.js";
import type { ReadPublisher } from "./publisher.js";

/** Control client settings a caller may set (the hub decides server, session and auto-continue). */
export type ClientSettings = Omit<ControlClientOptions, "server" | "session" | "autoContinue">;
/** How control clients are started (a seam: tests hold their processes). */
export type StartClient = (options: ControlClientOptions) => Promise<ControlClient>;

export interface HubOptions {
  server: TmuxServer;
  key?: Uint8Array;
  /** Bound into every cursor this hub issues (default: new for each Hub): another's answers `restarted`. */
  instance?: Uint8Array;
  /** Most panes watched at once; the least recently read is retired first. Default 500. */
  maxPanes?: number;
  /** A pane unread this long is retired (its cursors are then answered as missed, "evicted"). Default 10 min. */
  idleMs?: number;
  /**
   * A pane read this recently is not retired for maxPanes: its read may be under way (or a wait on
   * several panes being set up), and the hub runs over the cap a while instead. Default 1 s.
   */
  recentMs?: number;
  scrollback?: number;
  ringBytes?: number;
  /** Where notable events go, one line each. Default: stderr. */
  warn?: (message: string) => void;
  /** Control client settings (e.g. pauseAfterSeconds, spawn); the hub always sets autoContinue off. */
  client?: ClientSettings;
  /** How control clients are started (a seam; default ControlClient.start). */
  startClient?: StartClient;
  /** A pane read by polling tries control mode again after this long. Default 30 s. */
  retryStreamingMs?: number;
  /** How often a waiting read polls while control mode is unavailable. Default 250 ms. */
  pollIntervalMs?: number;
  /** At most one audit against tmux's screen per pane this often, resizes aside (audit/timer.ts). Default 2 s. */
  auditIntervalMs?: number;
  /** Confirm output on a second, `-f no-output` control client (confirm/quiet-client.ts). Default false. */
  quietClient?: boolean;
  /** Confirm output from /proc where it shows the pane's process (confirm/pane-process.ts). Default true. */
  procCheck?: boolean;
  /** Where streamed panes are published for reads answered on another thread (publisher.ts). Default: nowhere. */
  publisher?: ReadPublisher;
}

/** HubOptions with every default applied: what the watch's parts read. */
export interface WatchSettings {
  readonly server: TmuxServer;
  readonly key: Uint8Array;
  readonly instance: Uint8Array;
  readonly maxPanes: number;
  readonly idleMs: number;
  readonly recentMs: number;
  readonly scrollback: number;
  readonly ringBytes: number;
  readonly warn: (message: string) => void;
  /** `warn` for a pane's replica events: heals, emulator failures. */
  readonly log: (line: string) => void;
  readonly client: ClientSettings;
  readonly startClient: StartClient;
  readonly retryStreamingMs: number;
  readonly auditIntervalMs: number;
  readonly pollIntervalMs: number;
  readonly quietClient: boolean;
  readonly procCheck: boolean;
  readonly publisher: ReadPublisher | undefined;
}

// 500 panes read once cost ≈ 140 MiB above an idle process and < 1% of a core (bench figure 14).
export const DEFAULT_MAX_PANES = 500;
export const DEFAULT_IDLE_MS = 10 * 60_000;
export const DEFAULT_RECENT_MS = 1000;
export const DEFAULT_RETRY_STREAMING_MS = 30_000;
export const DEFAULT_POLL_INTERVAL_MS = 250;

const toStderr = (message: string): void => void process.stderr.write(`${message}\n`);

/** The one place the watch's defaults live. The cursor key is loaded here when none is given. */
export function resolveSettings(options: HubOptions): WatchSettings {
  const warn = options.warn ?? toStderr;
  return {
    server: options.server,
    key: options.key ?? loadCursorKey({ warn }).key,
    instance: options.instance ?? newInstanceId(),
    maxPanes: options.maxPanes ?? DEFAULT_MAX_PANES,
    idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
    recentMs: options.recentMs ?? DEFAULT_RECENT_MS,
    scrollback: options.scrollback ?? DEFAULT_SCROLLBACK,
    ringBytes: options.ringBytes ?? DEFAULT_RING_CAPACITY,
    warn,
    log: (line) => warn(`panescope: ${line}`),
    // A control client left running on close is said where the hub's lines go.
    client: { warn, ...options.client },
    startClient: options.startClient ?? ((o) => ControlClient.start(o)),
    retryStreamingMs: options.retryStreamingMs ?? DEFAULT_RETRY_STREAMING_MS,
    auditIntervalMs: options.auditIntervalMs ?? AUDIT_INTERVAL_MS,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    quietClient: options.quietClient ?? false,
    procCheck: options.procCheck ?? true,
    publisher: options.publisher,
  };
}
