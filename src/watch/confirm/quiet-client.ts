// Confirm, on the quiet client: "does this pane still run the process we watch?", asked where no
// flood stands in front of the answer: a second control client per tmux server, attached with `-f
// no-output` (tmux 3.2+), so tmux sends it no %output and its replies never queue behind a pane's
// output (what that saves under a flood: docs/benchmarks.md). Questions are batched: one
// `list-panes -a` answers every pane that asked since the last one, and at most one is in flight.
import { messageOf } from "../../errors.js";
import type { PaneExit } from "../../observe/read/delta.js";
import { ControlClient, type ControlClientOptions } from "../../tmux/client.js";
import { parseExit } from "../../tmux/exit.js";
import { TmuxFormat } from "../../tmux/format.js";
import type { TmuxServer } from "../../tmux/server.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";
import { attachTurnsFor, type AttachTurns } from "../../tmux/attach-turns.js";

/** What tmux says of one pane. */
export interface PaneLife {
  panePid: number;
  dead: boolean;
  exit?: PaneExit;
}

/** A watch waiting for an answer (PaneWatch). */
export interface Asker {
  readonly paneId: string;
  /** Bytes of the pane's output received so far: what an answer asked for now covers. */
  readonly received: number;
  /** A session to attach the quiet client to when it has none (the asker's). */
  readonly session: string | undefined;
  /** tmux's answer, asked after `upTo` bytes had arrived: undefined when the pane is gone. */
  answer(life: PaneLife | undefined, upTo: number): void;
  /** No quiet client could be had: ask through the watching client instead. */
  askElsewhere(): void;
}

export interface QuietClientOptions {
  server: TmuxServer;
  /**
   * Attach the quiet client (default false: watches ask through their own clients). Measured
   * trade-off (docs/benchmarks.md): a `-f no-output` client keeps every pane of the server flowing
   * (tmux 3.3a server-client.c: a pane stops being read only while all attached clients are
   * control clients that cannot take more), so a flood is read at tmux's full speed and paused
   * (output lost, flagged) when panescope falls behind, instead of slowed to panescope's pace.
   */
  quiet?: boolean;
  /** How control clients are started (the hub's seam; default ControlClient.start). */
  start?: ((options: ControlClientOptions) => Promise<ControlClient>) | undefined;
  client?: Omit<ControlClientOptions, "server" | "session">;
  /** Least time between two questions (a pane printing without pause asks about this often). */
  intervalMs?: number;
  warn?: (message: string) => void;
}

const LIFE = new TmuxFormat({ paneId: "pane_id", panePid: "pane_pid", dead: "pane_dead", status: "pane_dead_status", signal: "pane_dead_signal" });
const LIST = ["list-panes", "-a", "-F", LIFE.text];
/** After the quiet client failed to start, watches ask through their own clients this long. */
const RETRY_MS = 5000;

export class QuietClient {
  private readonly askers = new Set<Asker>();
  private client: ControlClient | undefined;
  private starting: Promise<ControlClient> | undefined;
  private failedAt = -Infinity;
  private inFlight = false;
  private lastAsked = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Questions asked (the bench counts them). */
  questions = 0;

  /** Attaches and detaches in turn with the watching clients (tmux/attach-turns.ts: 3.2a–3.6a crash). */
  private readonly turns: AttachTurns;

  constructor(private readonly options: QuietClientOptions) {
    this.turns = attachTurnsFor(options.server);
  }

  /** Whether questions go to the quiet client now (else watches ask through their own). */
  get available(): boolean {
    return this.options.quiet === true && !this.closed && performance.now() - this.failedAt >= RETRY_MS;
  }

  /** Starts the quiet client ahead of the first question (attached to `session`). */
  warm(session: string): void {
    if (this.available) this.quiet(session).catch(() => undefined);
  }

  /** Asks soon about `asker`'s pane; one answer serves every ask made before it was sent. */
  ask(asker: Asker): void {
    if (this.closed) return;
    this.askers.add(asker);
    this.schedule();
  }

  /** Forgets a watch that ended. */
  forget(asker: Asker): void {
    this.askers.delete(asker);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.askers.clear();
    const client = this.client ?? (await this.starting?.catch(() => undefined));
    if (client) await this.detach(client);
  }

  private schedule(): void {
    if (this.inFlight || this.timer || this.askers.size === 0 || this.closed) return;
    const wait = this.lastAsked + (this.options.intervalMs ?? 5) - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    void this.round();
  }

  private async round(): Promise<void> {
    this.inFlight = true;
    this.lastAsked = performance.now();
    const batch = [...this.askers];
    this.askers.clear();
    try {
      if (!this.available) throw new Error("the quiet client failed recently");
      const session = batch.find((asker) => asker.session !== undefined)?.session;
      const client = await this.quiet(session);
      // What each answer covers is taken right before the question leaves: bytes received by then
      // were read by tmux before it runs the question, so a new process would show in the answer.
      const covered = batch.map((asker) => asker.received);
      this.questions++;
      const lives = parseLives(await client.command(LIST, { timeoutMs: PROBE_TIMEOUT_MS }));
      batch.forEach((asker, i) => asker.answer(lives.get(asker.paneId), covered[i] ?? 0));
    } catch {
      for (const asker of batch) asker.askElsewhere();
    } finally {
      this.inFlight = false;
      this.schedule();
    }
  }

  /** The quiet client, started (attached to `session`) when there is none or it ended. */
  private quiet(session: string | undefined): Promise<ControlClient> {
    if (this.client && !this.client.closed) return Promise.resolve(this.client);
    if (this.starting) return this.starting;
    if (session === undefined) return Promise.reject(new Error("no session to attach the quiet client to"));
    const start = this.options.start ?? ((o: ControlClientOptions) => ControlClient.start(o));
    const starting = this.turns.attach(() =>
      start({ ...this.options.client, server: this.options.server, session, noOutput: true, pauseAfterSeconds: 0, autoContinue: false, nudgeAfterMs: 0 }),
    );
    this.starting = starting;
    starting.then(
      (client) => {
        this.starting = undefined;
        if (this.closed) void this.detach(client);
        else this.client = client;
      },
      (error: unknown) => {
        this.starting = undefined;
        this.failedAt = performance.now();
        this.options.warn?.(`panescope: no quiet control client (${messageOf(error)}); output is confirmed through the watching clients`);
      },
    );
    return starting;
  }

  private detach(client: ControlClient): Promise<void> {
    return this.turns.detach(() => client.close());
  }
}

function parseLives(lines: string[]): Map<string, PaneLife> {
  const lives = new Map<string, PaneLife>();
  for (const f of LIFE.parse(lines)) {
    const dead = f.dead === "1";
    const exit = dead ? parseExit(f.status, f.signal) : undefined;
    lives.set(f.paneId, { panePid: Number(f.panePid), dead, ...(exit ? { exit } : {}) });
  }
  return lives;
}
