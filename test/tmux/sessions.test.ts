// The session registry with clients that never exit (a stopped tmux holds a client's exit back):
// a closed client is forgotten at the next acquire, not once its process exits.
import { describe, expect, it } from "vitest";
import type { ControlClient, ControlClientOptions } from "../../src/tmux/client.js";
import type { TmuxServer } from "../../src/tmux/server.js";
import { SessionRegistry } from "../../src/tmux/sessions.js";

interface FakeClient {
  name: string;
  closed: boolean;
}

function registry(): { registry: SessionRegistry; started: FakeClient[] } {
  const started: FakeClient[] = [];
  const start = (options: ControlClientOptions): Promise<ControlClient> => {
    const client = {
      name: `${options.session} #${started.length + 1}`,
      closed: false,
      exited: new Promise(() => undefined),
      on: () => () => undefined,
      close: async () => void (client.closed = true),
    };
    started.push(client);
    return Promise.resolve(client as unknown as ControlClient);
  };
  const server = { run: () => Promise.resolve([]) } as unknown as TmuxServer;
  return { registry: new SessionRegistry({ server, start }), started };
}

const nameOf = (client: ControlClient): string => (client as unknown as FakeClient).name;

describe("SessionRegistry", () => {
  it("shares a live client, and starts a fresh one once it closed though its process has not exited", async () => {
    const { registry: sessions, started } = registry();
    const a = await sessions.acquire("main");
    const b = await sessions.acquire("main");
    expect(nameOf(b.client)).toBe(nameOf(a.client));
    const [first] = started;
    if (first) first.closed = true; // tmux ended it; its exit never comes
    const c = await sessions.acquire("main");
    expect(nameOf(c.client)).toBe("main #2");
    // The old lease's release leaves the new client alone.
    a.release();
    b.release();
    expect(started[1]?.closed).toBe(false);
    expect(nameOf((await sessions.acquire("main")).client)).toBe("main #2");
  });
});
