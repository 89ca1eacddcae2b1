// Format subscriptions (`refresh-client -B`) in a form that cannot crash the user's tmux. Pure.
//
// tmux 3.2a–3.6a crash (a NULL+0xf0 read in winlinks_RB_MINMAX) when a control client with an
// all-panes (`%*`) subscription has no session at a tick of its 1-second subscription timer:
// control_check_subs_all_panes walks `c->session->windows` unchecked (so do the `@*` and session
// forms). A client has no session from the moment its session is destroyed (its last pane killed,
// kill-session: server_destroy_session) or it starts to exit (MSG_EXITING), until its `tmux -C`
// process has gone; a busy machine, a slow or stopped client holds that window open across a tick.
// 3.7 returns early when the client has no session (control_check_subs_timer). A window
// subscription (`@W`) only compares the window's links with the client's session, and a pane one
// (`%P`) too, so those are safe everywhere: on 3.2a–3.6a a subscription about panes is made per
// window, one pane picked out of the window's pane loop. (A pane subscription would not do: tmux
// 3.2a–3.7c skip a dead pane in it, `wp->fd == -1`, and dead panes are what it is for.)
import type { ControlEvent } from "./events.js";
import type { TmuxVersion } from "./version.js";

type Subscription = Extract<ControlEvent, { type: "subscription-changed" }>;

/**
 * The `refresh-client -B` argument that reports `format` for `paneId` (in window `windowId`) under
 * `name`. On versions that survive a sessionless client, one `%*` subscription per client covers
 * every pane (the same argument from every watch: re-adding it only reports all panes again).
 * Otherwise, and when the version is not known, one `@W` subscription per pane and `tag` (a word
 * that tells two watches of one pane apart), renewed when the pane changes window; none while
 * the window is not known. Read the answers with subscribedPane.
 */
export function paneSubscription(version: TmuxVersion | undefined, name: string, paneId: string, windowId: string, format: string, tag: string): string | undefined {
  if (version !== undefined && !version.crashesOnSessionlessSubscription) return `${name}:%*:${format}`;
  // Anything but `@N` or `%N` there makes a session subscription (cmd-refresh-client.c), which
  // crashes the same way (control_check_subs_session reads `s->id`): no window known, none asked.
  if (!/^@\d+$/.test(windowId) || !/^%\d+$/.test(paneId)) return undefined;
  // The value is empty while the pane is not in the window (moved away: the watch follows it).
  return `${name}-${paneId}-${tag}:${windowId}:#{P:#{?#{==:#{pane_id},${paneId}},${format},}}`;
}

/**
 * The `refresh-client -B` argument that reports `format` for the client's session (an empty target)
 * under `name`, or undefined where that form can crash tmux (3.2a–3.6a, and a version not known):
 * control_check_subs_session reads `s->id` of a client without a session (measured: `segfault at 0`).
 */
export function sessionSubscription(version: TmuxVersion | undefined, name: string, format: string): string | undefined {
  return version !== undefined && !version.crashesOnSessionlessSubscription ? `${name}::${format}` : undefined;
}

/** The name a paneSubscription argument gives its subscription (what `refresh-client -B NAME` drops). */
export function subscriptionName(argument: string): string {
  const colon = argument.indexOf(":");
  return colon < 0 ? argument : argument.slice(0, colon);
}

/** The pane a `subscription-changed` event of a paneSubscription named `name` is about, if any. */
export function subscribedPane(name: string, event: Subscription): string | undefined {
  if (event.name === name) return event.paneId === "-" ? undefined : event.paneId;
  if (!event.name.startsWith(`${name}-`) || event.value === "") return undefined;
  return /^(%\d+)-\w+$/.exec(event.name.slice(name.length + 1))?.[1];
}

/**
 * The `refresh-client -B` argument that reports `format` for every pane of window `windowId` (an
 * `@N`: anything else would make a session subscription), concatenated (the window's pane loop):
 * safe on every version. Name: `${name}-@W`.
 */
export function windowPanesSubscription(name: string, windowId: string, format: string): string {
  return `${name}-${windowId}:${windowId}:#{P:${format}}`;
}
