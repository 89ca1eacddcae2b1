// Follow: what tmux reports of a watched pane by subscription and layout, and what the watch does
// about it. The pane's end and process come from a subscription to the pane, in the form that is safe
// on this version; where that is safe (3.7+), the session's pane list too, so a pane that left the
// session without a word is noticed. Reading the reports is pure (report → what happened).
import type { PaneExit } from "../../observe/read/delta.js";
import type { ControlClient } from "../../tmux/client.js";
import type { ControlEvent } from "../../tmux/events.js";
import { parseExit } from "../../tmux/exit.js";
import { parseLayout } from "../../tmux/layout.js";
import { STATUS_OPTION } from "../../tmux/server.js";
import { paneSubscription, sessionSubscription, subscribedPane, subscriptionName } from "../../tmux/subscriptions.js";
import type { TmuxVersion } from "../../tmux/version.js";
import { heldEnd, type HeldEnd } from "../seed/probe.js";

/**
 * What a subscription reports of the watched pane. tmux 3.3a never reports a dead pane through a
 * single-pane subscription (`name:%1:#{pane_dead}` stays at 0 after the process exits with
 * remain-on-exit on), but the all-panes form `name:%*:…` does, within about a second; that form
 * crashes tmux 3.2a–3.6a when the client loses its session, so there it is a window subscription
 * picking the pane out (tmux/subscriptions.ts). pane_dead_signal is empty on 3.2a (no such
 * format). A pane panescope opened keeps running after its program ends (mcp/pane-command.ts) and
 * sets STATUS_OPTION: a hint to read the end from the pane's process (watch/opened-pane.ts), never
 * the end itself (any program can set it, at any scope).
 */
export const PANES_SUBSCRIPTION = "panescope_panes";
const PANE_FORMAT = `#{pane_dead} #{pane_pid} #{pane_dead_status} #{pane_dead_signal} #{${STATUS_OPTION}}`;
/**
 * Every pane of the client's session, checked by tmux once a second. Some moves out of the session
 * send a control client nothing at all (`swap-window` with another session's window, 3.2a–3.7c),
 * and an event can name a window the watch did not know yet (a pane broken out into a new window of
 * the same session, then moved on): when our pane is missing from this list it has left, and is
 * followed. A session subscription: only asked of tmux 3.7+ (tmux/subscriptions.ts); on 3.2a–3.6a
 * a quiet pane someone reads is looked for instead (presence.ts).
 */
export const MEMBERS_SUBSCRIPTION = "panescope_members";
const MEMBERS_FORMAT = "#{W:#{P:#{pane_id} }}";
let watches = 0;

/** What a report says happened to the pane. */
export type PaneNews =
  | { kind: "left" }
  | { kind: "respawned" }
  | { kind: "ended"; exit: PaneExit | undefined };

/**
 * What a subscription report means for `paneId` running `panePid`; undefined: nothing for it.
 * `held` reads the end of a pane panescope opened from its process (seed/probe.ts).
 */
export function readSubscription(
  event: Extract<ControlEvent, { type: "subscription-changed" }>,
  paneId: string,
  panePid: number,
  held: HeldEnd = heldEnd,
): PaneNews | undefined {
  if (event.name === MEMBERS_SUBSCRIPTION) return event.value.split(" ").includes(paneId) ? undefined : { kind: "left" };
  if (subscribedPane(PANES_SUBSCRIPTION, event) !== paneId) return undefined;
  const [dead, pid, status, signal, option] = event.value.split(" ");
  if (pid !== undefined && pid !== "" && Number(pid) !== panePid) return { kind: "respawned" };
  // The option is a hint to look, not the end: that is what the pane's process says.
  const ended = option === undefined || option === "" ? undefined : held(panePid);
  if (ended !== undefined) return { kind: "ended", exit: { status: ended } };
  return dead === "1" ? { kind: "ended", exit: parseExit(status, signal) } : undefined;
}

/**
 * Where a layout puts the pane: its size (a zoomed pane's is in the visible layout: tmux 3.3a
 * `resize-pane -Z` flags `*Z`, the full layout keeps the unzoomed split), "left" when it left the
 * window it was in, undefined when the layout is of another window.
 */
export function paneInLayout(event: Extract<ControlEvent, { type: "layout-change" }>, paneId: string, windowId: string): { cols: number; rows: number } | "left" | undefined {
  const visible = event.visibleLayout === undefined ? null : parseLayout(event.visibleLayout);
  const pane = (visible ?? event.panes).find((p) => p.paneId === paneId) ?? event.panes.find((p) => p.paneId === paneId);
  if (pane) return { cols: pane.cols, rows: pane.rows };
  return event.windowId === windowId ? "left" : undefined;
}

/** One watch's subscriptions on its client; asked again when the pane changes window or client. */
export class PaneSubscriptions {
  /** The subscription last asked of tmux through the client ("" before start, after a move). */
  private subscribed = "";
  /** Tells this watch's per-pane subscription from another watch's of the same pane (a respawn's). */
  private readonly tag = String(++watches);

  constructor(
    private readonly paneId: string,
    private readonly version: TmuxVersion | undefined,
  ) {}

  /** Whether tmux can be asked for the session's pane list here (else presence.ts looks). */
  get membersReported(): boolean {
    return sessionSubscription(this.version, MEMBERS_SUBSCRIPTION, MEMBERS_FORMAT) !== undefined;
  }

  /**
   * Asks tmux to report the pane's end and process as they change; again when that form names a
   * window and the pane changed window. Best effort: without it a dead pane under remain-on-exit is
   * found by the next confirmation.
   */
  subscribe(client: Pick<ControlClient, "closed" | "command">, windowId: string): void {
    const argument = paneSubscription(this.version, PANES_SUBSCRIPTION, this.paneId, windowId, PANE_FORMAT, this.tag);
    if (argument === undefined || argument === this.subscribed || client.closed) return;
    // First on this client (start, a move): also the session's pane list where that is safe (the
    // same argument from every watch of the client; asking again only reports the list again).
    const members = this.subscribed === "" ? sessionSubscription(this.version, MEMBERS_SUBSCRIPTION, MEMBERS_FORMAT) : undefined;
    this.subscribed = argument;
    client.command(["refresh-client", "-B", argument]).catch(() => undefined);
    if (members !== undefined) client.command(["refresh-client", "-B", members]).catch(() => undefined);
  }

  /** Whether a subscription was asked on the current client. */
  get active(): boolean {
    return this.subscribed !== "";
  }

  /** Drops a subscription of this pane's own (the per-window form); the shared `%*` one stays. */
  unsubscribe(client: Pick<ControlClient, "closed" | "command">): void {
    const name = subscriptionName(this.subscribed);
    this.subscribed = "";
    if (name.startsWith(`${PANES_SUBSCRIPTION}-`) && !client.closed) client.command(["refresh-client", "-B", name]).catch(() => undefined);
  }
}
