// The daemon's faults that come from tmux or a kill, on a real private tmux: the daemon killed
// during a call (over its stale socket), and the tmux server killed under it. What a daemon's start
// meets without tmux deciding it (its directory, its socket file, its log, a racing start) is in
// daemon-start.test.ts. Each case has its own server and directories, and kills every daemon it started.
import { lstatSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELLO, PROTOCOL } from "../../../src/shell/protocol.js";
import { waitFor } from "../../support/tmux-fixture.js";
import { gone, serverPerTest, socketIn } from "../../support/shell-daemon.js";

const setUp = serverPerTest();

interface Answer {
  missed: boolean;
  reason?: string;
  rows: { text: string }[];
}

describe("the daemon's faults", () => {
  it("a daemon SIGKILLed during a call: the command says so, the next starts a new daemon over the stale socket, and the reader's cursor answers missed: restarted", async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
    const [first] = place.daemons();
    expect(first).toBeDefined();
    // The typed marker on the screen shows the call is inside its wait in the daemon.
    const waiting = place.start(["send", "%0", "--as", "k", "--text", "echo marker-$((6*7))", "--wait-for", "^never-printed$", "--timeout", "60000"]);
    await waitFor(async () => (await tmux.run(["capture-pane", "-p", "-t", "%0"])).some((line) => line.includes("marker-$((6*7))")), 20_000, "the typed marker");
    process.kill(first ?? 0, "SIGKILL");
    const interrupted = await waiting;
    expect(interrupted.exitCode).toBe(4);
    expect(String(interrupted.stderr)).toMatch(/daemon \(pid \d+\) went away during the call.*: its keys may have been typed: panescope read %0 -L \S+ shows what the pane did, before you send them again/);
    expect(String(interrupted.stderr)).toContain(`panescope read %0 -L ${tmux.name} shows`);
    // Its keys are on the screen: running the command again would type them twice.
    expect(String(interrupted.stderr)).not.toContain("run the command again");
    await gone(first ?? 0);

    const dir = join(place.runtime, "panescope");
    expect(lstatSync(socketIn(dir)).isSocket()).toBe(true); // left by the killed daemon
    const after = await place.run(["read", "%0", "--as", "k", "--json"]);
    expect(after.exitCode, after.stderr).toBe(0);
    const answer = JSON.parse(after.stdout) as Answer;
    expect(answer).toMatchObject({ missed: true, reason: "restarted" });
    expect(place.daemons()).toHaveLength(1);
    expect(place.daemons()).not.toContain(first);
  });

  it("the tmux server killed: a read says the pane closed (a list, that no server runs) while the daemon has another client; once none is left it exits, and after a new server on the same socket the reader's cursor answers missed: server-restarted", async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
    const [first] = place.daemons();
    // Another client, welcomed (so the daemon counts it), stays connected across the kill: a daemon
    // with no client left would find its server gone and exit (its look every 5 s could come first).
    const other = connect({ path: socketIn(join(place.runtime, "panescope")) });
    other.setEncoding("utf8");
    const welcomed = new Promise<string>((resolve) => other.once("data", resolve));
    other.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: HELLO, params: { protocol: PROTOCOL, version: "test" } })}\n`);
    expect(await welcomed).toContain('"clients":');
    await tmux.run(["kill-server"]).catch(() => undefined);
    const failed = await place.run(["read", "%0", "--as", "k"]);
    // The pane went with its server: the reader is told it closed (exit status 3).
    expect(failed.exitCode, failed.stdout + failed.stderr).toBe(3);
    expect(failed.stdout).toContain("closed");
    // The daemon names its server by the socket path it was started with: the command says it as it was named.
    const listed = await place.run(["list"]);
    expect(listed.exitCode).toBe(4);
    expect(listed.stderr).toBe(`panescope: error (no-server): the tmux server of -L ${tmux.name} is not running: start it with \`tmux -L ${tmux.name} new-session -d\`, or name another with -L NAME or -S PATH`);
    // Its last client gone, with its server, the daemon exits; the next command starts another.
    other.destroy();
    if (first !== undefined) await gone(first);
    await tmux.run(["-f", "/dev/null", "new-session", "-d", "-s", "again", "-x", "60", "-y", "10", "sh"]);
    const after = await place.run(["read", "%0", "--as", "k", "--json"]);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout) as Answer).toMatchObject({ missed: true, reason: "server-restarted" });
    expect(place.daemons()).toHaveLength(1);
  });

  it("a daemon started over a damaged readers' journal says so in its log, keeps the good cursors, and tells the reader whose cursor was lost: missed: forgotten, not a silent start over", async () => {
    const { place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "kept"])).exitCode).toBe(0);
    expect((await place.run(["read", "%0", "--as", "lost"])).exitCode).toBe(0);
    const [first] = place.daemons();
    process.kill(first ?? 0, "SIGTERM");
    await gone(first ?? 0);
    const dir = join(place.runtime, "panescope");
    const journal = join(dir, readdirSync(dir).find((file) => file.endsWith(".readers.jsonl")) ?? "no journal");
    // The line of "lost" cut short in the middle of the file (its key whole), the others as they were.
    const damaged = readFileSync(journal, "utf8")
      .split("\n")
      .map((line) => (line.startsWith('["lost') ? line.slice(0, line.length - 6) : line))
      .join("\n");
    expect(damaged).toContain('["lost');
    writeFileSync(journal, damaged);
    const lost = await place.run(["read", "%0", "--as", "lost", "--json"]);
    expect(lost.exitCode, lost.stderr).toBe(0);
    expect(JSON.parse(lost.stdout) as Answer).toMatchObject({ missed: true, reason: "forgotten" });
    const kept = await place.run(["read", "%0", "--as", "kept", "--json"]);
    expect(JSON.parse(kept.stdout) as Answer).toMatchObject({ missed: true, reason: "restarted" });
    const fresh = await place.run(["read", "%0", "--as", "new", "--json"]);
    expect(JSON.parse(fresh.stdout) as Answer).toMatchObject({ missed: false });
    const log = readdirSync(dir).find((file) => file.endsWith(".log"));
    expect(readFileSync(join(dir, log ?? "no log"), "utf8")).toMatch(/1 damaged line\(s\) in readers' cursors .* skipped/);
  });
});
