// The daemon's faults on a real private tmux: killed during a call, a stale socket file, a socket
// directory others may enter or that belongs to someone else, the tmux server killed under it,
// a restarted daemon's log, and twenty commands at once against no daemon. Each case has its own server and directories,
// and kills every daemon it started.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { daemonPaths } from "../../../src/shell/paths.js";
import { HELLO, PROTOCOL } from "../../../src/shell/protocol.js";
import { LOG_ROTATE_BYTES } from "../../../src/shell/start.js";
import { startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { daemonLogsOnFailure, gone, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";

let tmux: TestServer | undefined;
let place: ShellPlace | undefined;

afterEach(async () => {
  await place?.clean();
  await tmux?.kill();
  place = undefined;
  tmux = undefined;
});
// Registered after the clean-up: after-hooks run last first, so the logs are read before they go.
daemonLogsOnFailure(() => place);

async function setUp(): Promise<{ tmux: TestServer; place: ShellPlace }> {
  tmux = await startServer({ command: "sh", cols: 60, rows: 10 });
  place = shellPlace(tmux.name);
  return { tmux, place };
}

interface Answer {
  missed: boolean;
  reason?: string;
  rows: { text: string }[];
}

function logOf(tmux: TestServer, place: ShellPlace): string {
  return daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env }).log;
}

/** Starts a daemon with a command, then stops it (SIGTERM: it logs why); resolves with its pid. */
async function startAndStop(place: ShellPlace): Promise<number> {
  expect((await place.run(["list"])).exitCode).toBe(0);
  const [pid = 0] = place.daemons();
  process.kill(pid, "SIGTERM");
  await gone(pid);
  return pid;
}

function socketIn(dir: string): string {
  const name = readdirSync(dir).find((file) => file.endsWith(".sock"));
  if (name === undefined) throw new Error(`no socket in ${dir}`);
  return join(dir, name);
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
    expect(String(interrupted.stderr)).toMatch(/daemon \(pid \d+\) went away during the call.*run the command again/);
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

  it("refuses a socket directory others may enter, on the client and on the daemon's side, and says why", async () => {
    const { place } = await setUp();
    expect((await place.run(["list"])).exitCode).toBe(0);
    const dir = join(place.runtime, "panescope");
    chmodSync(dir, 0o755);
    const refused = await place.run(["list"]);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain(`refusing the daemon directory ${dir}: it has mode 755: others may enter it; it must be 700`);
    // The daemon checks the directory again at every connection: a client that does not check is refused too.
    const said = await new Promise<string>((resolve) => {
      let text = "";
      const socket = connect({ path: socketIn(dir) });
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("close", () => resolve(text));
    });
    expect(said).toContain("mode 755");
    chmodSync(dir, 0o700);
    expect((await place.run(["list"])).exitCode).toBe(0);
  });

  it.runIf(process.getuid?.() === 0)("refuses a socket directory that belongs to another user (checked as root: chown to nobody)", async () => {
    const { place } = await setUp();
    const dir = join(place.runtime, "panescope");
    expect((await place.run(["list"])).exitCode).toBe(0);
    chownSync(dir, 65534, 65534);
    const refused = await place.run(["list"]);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain("belongs to uid 65534, not to you");
    chownSync(dir, 0, 0);
  });

  it("refuses something that is not a socket where the socket belongs", async () => {
    const { place } = await setUp();
    expect((await place.run(["list"])).exitCode).toBe(0);
    const socket = socketIn(join(place.runtime, "panescope"));
    for (const pid of place.daemons()) {
      process.kill(pid, "SIGKILL");
      await gone(pid);
    }
    rmSync(socket);
    mkdirSync(socket);
    const refused = await place.run(["list"]);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain("is not a socket: remove it");
    rmSync(socket, { recursive: true });
    expect((await place.run(["list"])).exitCode).toBe(0);
  });

  it("the tmux server killed: a read says the pane closed while the daemon has another client; once none is left it exits, and after a new server on the same socket the reader's cursor answers missed: server-restarted", async () => {
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
    // Its last client gone, with its server, the daemon exits; the next command starts another.
    other.destroy();
    if (first !== undefined) await gone(first);
    await tmux.run(["-f", "/dev/null", "new-session", "-d", "-s", "again", "-x", "60", "-y", "10", "sh"]);
    const after = await place.run(["read", "%0", "--as", "k", "--json"]);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout) as Answer).toMatchObject({ missed: true, reason: "server-restarted" });
    expect(place.daemons()).toHaveLength(1);
  });

  it("a restarted daemon's log keeps the lines of the daemon before it, each daemon's beginning with its start line", async () => {
    const { tmux, place } = await setUp();
    const first = await startAndStop(place);
    expect((await place.run(["list"])).exitCode).toBe(0);
    const [second] = place.daemons();
    const lines = readFileSync(logOf(tmux, place), "utf8").trimEnd().split("\n");
    const at = (text: string): number => lines.findIndex((line) => line.includes(text));
    expect(at(`daemon pid ${first} starting`), lines.join("\n")).toBe(0);
    expect(at("stopping: SIGTERM")).toBeGreaterThan(0);
    expect(at(`daemon pid ${second} starting`)).toBeGreaterThan(at("stopping: SIGTERM"));
  });

  it("a log over its bound when a daemon starts is moved to .old, and the new log begins with that daemon", async () => {
    const { tmux, place } = await setUp();
    const log = logOf(tmux, place);
    mkdirSync(join(place.runtime, "panescope"), { mode: 0o700 });
    const old = `${"x".repeat(LOG_ROTATE_BYTES)}\nan earlier daemon's last line\n`;
    writeFileSync(log, old, { mode: 0o600 });
    expect((await place.run(["list"])).exitCode).toBe(0);
    const [pid] = place.daemons();
    expect(readFileSync(`${log}.old`, "utf8")).toBe(old);
    expect(readFileSync(log, "utf8")).toMatch(new RegExp(`^\\S+ panescope \\S+ daemon pid ${pid} starting`));
  });

  it("a daemon that cannot run its tmux (a mistyped --tmux) exits before it is ready: the command says why, quoting that daemon alone, and the next starts a working one", async () => {
    const { place } = await setUp();
    await startAndStop(place);
    const wrong = await place.run(["list", "--tmux", "/nonexistent/tmux"]);
    expect(wrong.exitCode).toBe(4);
    expect(wrong.stderr).toContain('the daemon exited (status 2) before it was ready');
    expect(wrong.stderr).toContain('cannot run "/nonexistent/tmux"');
    // The log keeps the daemon before it (its SIGTERM), and the quote leaves it out, and its own start line.
    expect(wrong.stderr).not.toMatch(/SIGTERM|starting/);
    expect(place.daemons()).toHaveLength(0);
    const right = await place.run(["list"]);
    expect(right.exitCode, right.stderr).toBe(0);
    expect(right.stdout).toContain("%0");
  });

  it("twenty commands at once against no daemon start exactly one", async () => {
    const { place } = await setUp();
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => place.start(["read", "%0", "--as", `r${i}`])));
    expect(runs.map((r) => r.exitCode)).toEqual(Array.from({ length: 20 }, () => 0));
    expect(runs.every((r) => String(r.stdout).startsWith("cursor="))).toBe(true);
    expect(place.daemons()).toHaveLength(1);
    expect(existsSync(join(place.runtime, "panescope"))).toBe(true);
  });
});
