// What a daemon's start meets, on a real private tmux whose behaviour decides none of it (run once,
// on the system tmux: test/tmux-dependent.ts): a socket directory others may enter or that belongs
// to someone else, something else where the socket belongs, the log a restart keeps, a tmux that
// cannot run, and twenty commands at once against no daemon. Each case has its own server and
// directories, and kills every daemon it started.
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { daemonPaths } from "../../../src/shell/paths.js";
import { LOG_ROTATE_BYTES } from "../../../src/shell/start.js";
import type { TestServer } from "../../support/tmux-fixture.js";
import { gone, serverPerTest, socketIn, type ShellPlace } from "../../support/shell-daemon.js";

const setUp = serverPerTest();

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

describe("a daemon's start", () => {
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
