// Follow: where a streamed pane is in its client's session — its window and size, as tmux last
// reported them — the subscriptions that report its end and process from there, and (where no
// subscription reports the session's panes) the looks that find it gone (presence.ts). A layout
// resizes the replica in stream order; a layout without the pane means it left its window.
import type { ControlClient } from "../../tmux/client.js";
import type { ControlEvent } from "../../tmux/events.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";
import type { TmuxVersion } from "../../tmux/version.js";
import { Presence } from "./presence.js";
import { listedAt, listedHere, listServer, type RosterClient } from "./roster.js";
import { PaneSubscriptions, paneInLayout } from "./subscriptions.js";

type Client = Pick<ControlClient, "closed"> & RosterClient;

export interface PlaceOptions {
  paneId: string;
  version: TmuxVersion | undefined;
  /** The client watching the pane now (a move changes it). */
  client(): Client;
  /** tmux says the pane is now this size (a change only). */
  resized(cols: number, rows: number): void;
  /** A look found the pane gone from the client's session: follow it. */
  left(): void;
  /** Whether a reader waits for news of the pane now (looks are made meanwhile). */
  waiting(): boolean;
}

export class PanePlace {
  windowId = "";
  private size = { cols: 0, rows: 0 };
  private readonly subscriptions: PaneSubscriptions;
  /** Where tmux cannot be asked to report the session's panes (3.2a–3.6a): looks on read. */
  private readonly presence: Presence | undefined;

  constructor(private readonly options: PlaceOptions) {
    this.subscriptions = new PaneSubscriptions(options.paneId, options.version);
    if (!this.subscriptions.membersReported) {
      this.presence = new Presence({ look: () => this.present(), waiting: options.waiting, listedAt: () => listedAt(options.client(), options.paneId) });
    }
  }

  /** The pane printed, so it is in the session. Cheap: called for every output chunk. */
  heard(): void {
    this.presence?.heard();
  }

  /**
   * Where no subscription reports the session's panes: if the pane was quiet for a second, ask tmux
   * whether it is still in the client's session (presence.ts). False when it left (and `left` was
   * called). Elsewhere, and for a pane that printed since the last look, true at once.
   */
  stillThere(): Promise<boolean> {
    return this.presence ? this.presence.check() : Promise.resolve(true);
  }

  /** Until when (performance.now()) `stillThere` answers true at once (Infinity: tmux tells of every move). */
  freshUntil(): number {
    return this.presence ? this.presence.freshUntil() : Infinity;
  }

  /** Whether the pane is in the session the client sees; when not, `left` is called. */
  async present(): Promise<boolean> {
    const client = this.options.client();
    // A listing that failed (it may have gone through another client, one that ended) says nothing.
    if (listedHere(await listServer(client).catch(() => undefined), client, this.options.paneId)) return true;
    // Not listed there (or the client's session not known yet): asked again through this client,
    // whose reply comes after every byte of the pane tmux sent it before (the listing may have come
    // through another). No -t: a control client's command targets its own session.
    const panes = await client.command(["list-panes", "-s", "-F", "#{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS });
    if (panes.includes(this.options.paneId)) return true;
    this.options.left();
    return false;
  }

  /** What a capture found: the pane's size and window (subscribed again there if it changed). */
  took(cols: number, rows: number, windowId: string): void {
    this.size = { cols, rows };
    this.windowId = windowId;
    if (this.subscriptions.active) this.subscribe();
  }

  subscribe(): void {
    this.subscriptions.subscribe(this.options.client(), this.windowId);
  }

  /** Before the client changes, and when the watch ends. */
  unsubscribe(): void {
    this.subscriptions.unsubscribe(this.options.client());
  }

  dispose(): void {
    this.presence?.dispose();
    this.unsubscribe();
  }

  /**
   * A %layout-change: follows the pane's size; "left" when it left the window it was in, "joined"
   * when it shows in another window of the session (joined there, maybe from outside the session,
   * which tmux need not have told us of: a `swap-window` with another session's window is silent).
   */
  layout(event: Extract<ControlEvent, { type: "layout-change" }>): "left" | "joined" | undefined {
    const found = paneInLayout(event, this.options.paneId, this.windowId);
    if (found === "left") return "left";
    if (!found) return undefined;
    const joined = this.windowId !== "" && event.windowId !== this.windowId;
    this.windowId = event.windowId;
    this.subscribe();
    this.resized(found.cols, found.rows);
    return joined ? "joined" : undefined;
  }

  /**
   * Still in the client's session, maybe in another window (`break-pane -d` sends no layout for the
   * new window): learn its window and size again from tmux. (The watch then takes its screen again,
   * flagged: PaneWatch.stayed.)
   */
  stayed(windowId: string): void {
    this.windowId = windowId;
    this.subscribe();
    void this.options
      .client()
      .command(["display-message", "-p", "-t", this.options.paneId, "#{pane_width} #{pane_height}"], { timeoutMs: PROBE_TIMEOUT_MS })
      .then(([size = ""]) => {
        const [cols = 0, rows = 0] = size.split(" ").map(Number);
        if (cols > 0 && rows > 0) this.resized(cols, rows);
      })
      .catch(() => undefined);
  }

  private resized(cols: number, rows: number): void {
    if (cols === this.size.cols && rows === this.size.rows) return;
    this.size = { cols, rows };
    this.options.resized(cols, rows);
  }
}
