// The quiet client attaches and detaches in turn with the watching clients of the same tmux server
// (tmux/attach-turns.ts: tmux 3.2a–3.6a crash when a detach is announced to a client still
// attaching). Fakes only: the order of calls is what is checked.
import { describe, expect, it } from "vitest";
import { attachTurnsFor } from "../../../src/tmux/attach-turns.js";
import { SessionRegistry } from "../../../src/tmux/sessions.js";
import type { ControlClient, ControlClientOptions } from "../../../src/tmux/client.js";
import type { TmuxServer } from "../../../src/tmux/server.js";
import { QuietClient } from "../../../src/watch/confirm/quiet-client.js";

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A tmux server whose round trips answer at once, and a log of what our clients did. */
function fakes(): { server: TmuxServer; log: string[]; start: (options: ControlClientOptions) => Promise<ControlClient> } {
  const log: string[] = [];
  const server = { run: () => Promise.resolve([]) } as unknown as TmuxServer;
  const start = (options: ControlClientOptions): Promise<ControlClient> => {
    const name = options.noOutput ? "quiet" : `watch ${options.session}`;
    log.push(`attach ${name}`);
    const client = {
      closed: false,
      exited: new Promise(() => undefined),
      on: () => () => undefined,
      close: async () => {
        log.push(`detach ${name}`);
        await turn();
      },
    };
    return Promise.resolve(client as unknown as ControlClient);
  };
  return { server, log, start };
}

describe("the quiet client's attach turns", () => {
  it("one tmux server object has one set of turns; another has its own", () => {
    const { server } = fakes();
    expect(attachTurnsFor(server)).toBe(attachTurnsFor(server));
    expect(attachTurnsFor(fakes().server)).not.toBe(attachTurnsFor(server));
  });

  it("the quiet client attaches only after a watching client's detach is over, and detaches in turn", async () => {
    const { server, log, start } = fakes();
    const registry = new SessionRegistry({ server, start });
    const lease = await registry.acquire("main");
    // The last release detaches the watching client; another detach of ours is slow to end; the
    // quiet client asks to attach meanwhile.
    lease.release();
    let release!: () => void;
    const detaching = attachTurnsFor(server).detach(() => new Promise<void>((resolve) => (release = resolve)));
    const quiet = new QuietClient({ server, quiet: true, start });
    quiet.warm("main");
    for (let i = 0; i < 5; i++) await turn();
    expect(log).toEqual(["attach watch main", "detach watch main"]);
    release();
    await detaching;
    for (let i = 0; i < 5 && log.length < 3; i++) await turn();
    expect(log).toEqual(["attach watch main", "detach watch main", "attach quiet"]);
    // The quiet client's detach waits for an attach in flight.
    let attached!: () => void;
    const attaching = attachTurnsFor(server).attach(() => new Promise<void>((resolve) => (attached = resolve)));
    const closed = quiet.close();
    await turn();
    expect(log).not.toContain("detach quiet");
    attached();
    await attaching;
    await closed;
    expect(log.at(-1)).toBe("detach quiet");
  });
});
