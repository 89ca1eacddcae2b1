// The shared daemon ends on SIGTERM and at its idle exit also when its tmux server is stopped
// (SIGSTOP) while it watches a pane: it waited for ever on its control client before (tmux holds the
// client's stdout). Now it leaves the client, its log says so once, and it stops.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StoppedServers } from "../../support/stopped-tmux.js";
import { waitFor } from "../../support/tmux-fixture.js";
import { gone, serverPerTest, type ShellPlace } from "../../support/shell-daemon.js";

const setUp = serverPerTest();
/** Registered after serverPerTest: runs before its clean-up, so tmux goes on before it is killed. */
const stopped = new StoppedServers();
afterEach(() => stopped.resumeAll());

/** The daemon's log (kept: it did not stop for its server being gone). */
function logOf(place: ShellPlace): string {
  const dir = join(place.runtime, "panescope");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".log"))
    .map((file) => readFileSync(join(dir, file), "utf8"))
    .join("");
}

/** Said through the daemon's log, as its own lines are (a timestamp first). */
const LEFT = /^\d{4}-\d\d-\d\dT[\d:.]+Z panescope: tmux did not answer: leaving its control client/gm;

describe("the daemon with its tmux server stopped", () => {
  it("stops on SIGTERM, its log saying once that it left its control client", { timeout: 60_000 }, async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["read", "%0"])).exitCode).toBe(0); // the daemon watches %0
    const [daemon = 0] = place.daemons();
    await stopped.stop(tmux);
    process.kill(daemon, "SIGTERM");
    await gone(daemon);
    const log = logOf(place);
    expect(log.match(LEFT)).toHaveLength(1);
    expect(log).toMatch(/daemon pid \d+ stopped: SIGTERM/);
  });

  it("stops at its idle exit, its log saying once that it left its control client", { timeout: 60_000 }, async () => {
    const { tmux, place } = await setUp();
    // A waiting command holds the daemon (no idle exit) while it watches %0 and tmux is stopped.
    const waiting = place.start(["wait", "%0", "--for", "^never-printed$", "--timeout", "60000"], { PANESCOPE_DAEMON_IDLE_MS: "1000" });
    await waitFor(async () => (await tmux.run(["list-clients", "-F", "#{client_control_mode}"])).includes("1"), 20_000, "the daemon's control client");
    const [daemon = 0] = place.daemons();
    await stopped.stop(tmux);
    waiting.kill("SIGKILL"); // its connection closes: the daemon has no client left
    await waiting;
    await gone(daemon);
    const log = logOf(place);
    expect(log.match(LEFT)).toHaveLength(1);
    expect(log).toMatch(/daemon pid \d+ stopped: no client for 1000 ms/);
  });
});
