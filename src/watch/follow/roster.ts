// The panes of a control client's session as tmux last listed them, shared by every watch on that
// client: one presence look (presence.ts) answers for all the session's panes. A fleet of quiet
// panes read one after another asked tmux once per pane; now once per session a second.
import type { ControlClient } from "../../tmux/client.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";

type Lister = Pick<ControlClient, "command">;

export interface Listing {
  /** When the question was sent (performance.now()): the answer is at least this fresh. */
  at: number;
  panes: ReadonlySet<string>;
}

interface ClientRoster {
  last?: Listing;
  asking?: Promise<Listing>;
}

/** Keyed by the client itself: a client that ends takes its roster with it. */
const rosters = new WeakMap<Lister, ClientRoster>();

/**
 * The panes of the client's session (no -t: a control client's command targets its own session),
 * asked now, or the answer to a question already on its way (sent a moment ago, as fresh as one
 * sent now would be by the time it came back). Rejects as the command does.
 */
export function listSession(client: Lister): Promise<Listing> {
  let roster = rosters.get(client);
  if (!roster) rosters.set(client, (roster = {}));
  if (roster.asking) return roster.asking;
  const at = performance.now();
  const entry = roster;
  const asking = client.command(["list-panes", "-s", "-F", "#{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS }).then((panes) => {
    const listing = { at, panes: new Set(panes) };
    if (!entry.last || entry.last.at < at) entry.last = listing;
    return listing;
  });
  roster.asking = asking;
  const done = (): void => {
    if (entry.asking === asking) entry.asking = undefined;
  };
  asking.then(done, done);
  return asking;
}

/** When tmux last listed `paneId` in the client's session (performance.now()); undefined if its last listing did not. */
export function listedAt(client: Lister, paneId: string): number | undefined {
  const last = rosters.get(client)?.last;
  return last?.panes.has(paneId) ? last.at : undefined;
}
