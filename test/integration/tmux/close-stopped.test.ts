// Closing control clients of a stopped (SIGSTOP) tmux server: tmux holds each client's stdout, so
// its end never came and close() waited for ever. close() now ends after its bounded wait, leaves
// the clients (never SIGKILLed), says so once per sink, and the clients end once tmux goes on.
import { afterEach, describe, expect, it } from "vitest";
import { ControlClient } from "../../../src/tmux/client.js";
import { isPanescopeError } from "../../../src/errors.js";
import { StoppedServers } from "../../support/stopped-tmux.js";
import { killAllServers, startServer } from "../../support/tmux-fixture.js";

const stopped = new StoppedServers();
afterEach(async () => {
  stopped.resumeAll();
  await killAllServers();
});

describe("closing control clients of a stopped tmux server", () => {
  it("close() ends, saying once that it left them; they end once tmux goes on, not killed", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    await test.run(["new-session", "-d", "-s", "other", "cat"]);
    const said: string[] = [];
    const warn = (line: string): void => void said.push(line);
    const clients = await Promise.all([test.session, "other"].map((session) => ControlClient.start({ server: test.server, session, warn })));
    const pid = await stopped.stop(test);

    await Promise.all(clients.map((client) => client.close()));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^panescope: tmux did not answer: leaving its control client \(session \w+, pid \d+, sent SIGTERM\)/);
    let ended = false;
    void Promise.all(clients.map((client) => client.exited)).then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false); // tmux, stopped, still holds them

    stopped.resume(pid);
    const ends = await Promise.all(clients.map((client) => client.exited));
    for (const end of ends) expect(end.reason ?? "").not.toMatch(/SIGKILL/);
  });

  it("an attach that tmux does not answer fails with a timeout instead of waiting for ever", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "cat" });
    const said: string[] = [];
    await stopped.stop(test);
    const attached = await ControlClient.start({ server: test.server, session: test.session, startTimeoutMs: 500, warn: (line) => void said.push(line) }).then(
      (client) => client,
      (error: unknown) => error,
    );
    expect(isPanescopeError(attached, "timeout")).toBe(true);
    expect(said).toHaveLength(1);
  });
});
