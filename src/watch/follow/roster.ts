// Which panes each session of a tmux server holds, as tmux last listed them, shared by every watch
// on that server: one presence look (presence.ts) answers for every watched pane. A fleet of quiet
// panes read one after another asked tmux once per pane; now about once a second in all.
import type { ControlClient } from "../../tmux/client.js";
import type { TmuxServer } from "../../tmux/server.js";
import { PROBE_TIMEOUT_MS } from "../../tmux/timeouts.js";

/** The watching client a look goes through, and the session (`$N`) it sees. */
export type RosterClient = Pick<ControlClient, "command" | "currentSession"> & { readonly server: TmuxServer };

export interface Listing {
  /** When the question was sent (performance.now()): the answer is at least this fresh. */
  at: number;
  /** Session id → its panes (a window linked into two sessions is in both). */
  sessions: ReadonlyMap<string, ReadonlySet<string>>;
}

interface ServerRoster {
  last?: Listing;
  asking?: Promise<Listing>;
}

/** Keyed by the server object the watches share: one roster per tmux server. */
const rosters = new WeakMap<TmuxServer, ServerRoster>();

/**
 * Every session's panes, asked now through `client`, or the answer to a question already on its
 * way (sent a moment ago, as fresh as one sent now would be by the time it came back). Rejects as
 * the command does.
 */
export function listServer(client: RosterClient): Promise<Listing> {
  let roster = rosters.get(client.server);
  if (!roster) rosters.set(client.server, (roster = {}));
  if (roster.asking) return roster.asking;
  const at = performance.now();
  const entry = roster;
  const asking = client.command(["list-panes", "-a", "-F", "#{session_id} #{pane_id}"], { timeoutMs: PROBE_TIMEOUT_MS }).then((lines) => {
    const sessions = new Map<string, Set<string>>();
    for (const line of lines) {
      const [session = "", pane = ""] = line.split(" ");
      let panes = sessions.get(session);
      if (!panes) sessions.set(session, (panes = new Set()));
      panes.add(pane);
    }
    const listing = { at, sessions };
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

/** Whether `listing` has `paneId` in the session `client` sees (false while tmux has not said which). */
export function listedHere(listing: Listing | undefined, client: RosterClient, paneId: string): boolean {
  const session = client.currentSession;
  return session !== undefined && listing?.sessions.get(session)?.has(paneId) === true;
}

/** When tmux last listed `paneId` in the session `client` sees (performance.now()); undefined if its last listing did not. */
export function listedAt(client: RosterClient, paneId: string): number | undefined {
  const last = rosters.get(client.server)?.last;
  return last && listedHere(last, client, paneId) ? last.at : undefined;
}
