// What a daemon's start meets, on a real private tmux whose behaviour decides none of it (run once,
// on the system tmux: test/tmux-dependent.ts): a socket directory others may enter or that belongs
// to someone else, something else where the socket belongs, the log a restart keeps, a tmux that
// cannot run, a daemon that never answers, a starter gone before the ready line, twenty commands
// at once against no daemon, a start lock left empty, a tmux server that is not running, and
// what a daemon whose server is gone leaves behind. Each case has its own server and directories,
// and kills every daemon it started.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { daemonPaths } from "../../../src/shell/paths.js";
import { HELLO_TIMEOUT_MS, LOG_ROTATE_BYTES } from "../../../src/shell/start.js";
import { socketFile, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { CLI, gone, serverPerTest, shellPlace, socketIn, type ShellPlace } from "../../support/shell-daemon.js";

const setUp = serverPerTest();

function logOf(tmux: TestServer, place: ShellPlace): string {
  return daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env }).log;
}

/** A command that reaches its daemon after the tmux server was killed: it fails, and the daemon, its last client gone, stops. */
async function afterServerKilled(tmux: TestServer, place: ShellPlace): Promise<void> {
  const [pid = 0] = place.daemons();
  await tmux.kill();
  expect((await place.run(["list"])).exitCode).toBe(4);
  await gone(pid);
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

  it("a daemon SIGTERMed while it watches a pane (a tmux child running) stops cleanly: its log ends with its stopped line", async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
    const [pid = 0] = place.daemons();
    process.kill(pid, "SIGTERM");
    await gone(pid);
    expect(readFileSync(logOf(tmux, place), "utf8").trimEnd().split("\n").at(-1)).toMatch(new RegExp(`daemon pid ${pid} stopped: SIGTERM$`));
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

  it.each([
    ["fails `-V`", "/bin/false", '"/bin/false" is not a tmux panescope can use (tmux -V failed (exit 1)): pass another binary with --tmux PATH'],
    ["prints nothing for `-V`", "/bin/true", "tmux -V printed nothing: is this really tmux? pass another binary with --tmux PATH"],
  ])("a --tmux that runs but is not tmux (%s) exits before it is ready too: it would fail every call until its idle exit", async (_, binary, why) => {
    const { place } = await setUp();
    const wrong = await place.run(["list", "--tmux", binary]);
    expect(wrong.exitCode).toBe(4);
    expect(wrong.stderr).toContain("the daemon exited (status 2) before it was ready");
    expect(wrong.stderr).toContain(why);
    expect(place.daemons()).toHaveLength(0);
    const right = await place.run(["list"]);
    expect(right.exitCode, right.stderr).toBe(0);
    expect(right.stdout).toContain("%0");
  });

  it("a daemon whose starter went away before its ready line (Ctrl-C or a kill during a cold start) keeps serving, not ended by the closed pipe", async () => {
    const { tmux, place } = await setUp();
    mkdirSync(join(place.runtime, "panescope"), { mode: 0o700 }); // a command makes it before it starts a daemon
    const daemon = execa(process.execPath, [CLI, "daemon", "-S", socketFile(tmux.name)], { env: { ...process.env, ...place.env }, buffer: false, reject: false });
    // The starter's end of the pipe, gone: the ready line meets EPIPE (it ended the daemon, status 70).
    daemon.stdout.destroy();
    let said = "";
    daemon.stderr.setEncoding("utf8");
    daemon.stderr.on("data", (chunk: string) => (said += chunk));
    await waitFor(() => said.includes("ready: socket"), 20_000, "the daemon's ready line in its log");
    const read = await place.run(["read", "%0", "--as", "k"]);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(said).not.toContain("uncaughtException");
    expect(place.daemons()).toEqual([daemon.pid]);
    process.kill(daemon.pid ?? 0, "SIGTERM");
    expect((await daemon).exitCode).toBe(0);
  });

  it("a daemon that takes the connection but never answers (SIGSTOPped): the command gives up after HELLO_TIMEOUT_MS, naming its pid and what to do, instead of waiting for ever", async () => {
    const { place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
    const [pid] = place.daemons();
    process.kill(pid ?? 0, "SIGSTOP");
    try {
      const stuck = await place.run(["read", "%0", "--as", "k"]);
      expect(stuck.exitCode).toBe(4);
      expect(stuck.stderr).toContain(`the daemon (pid ${pid}, the last started in its log) at `);
      expect(stuck.stderr).toContain(`did not answer within ${HELLO_TIMEOUT_MS} ms: it is stopped or stuck`);
      expect(stuck.stderr).toContain(`\`kill -CONT ${pid}\` if it was stopped, else \`kill ${pid}\``);
    } finally {
      process.kill(pid ?? 0, "SIGCONT");
    }
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
  });

  it("twenty commands at once against no daemon start exactly one", async () => {
    const { place } = await setUp();
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => place.start(["read", "%0", "--as", `r${i}`])));
    expect(runs.map((r) => r.exitCode)).toEqual(Array.from({ length: 20 }, () => 0));
    expect(runs.every((r) => String(r.stdout).startsWith("cursor="))).toBe(true);
    expect(place.daemons()).toHaveLength(1);
    expect(existsSync(join(place.runtime, "panescope"))).toBe(true);
  });

  it("an empty start lock (its starter died before writing its pid) is taken over, and a start leaves no lock or file of its own behind", async () => {
    const { tmux, place } = await setUp();
    await startAndStop(place);
    const { lock } = daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env });
    writeFileSync(lock, "");
    const made = (Date.now() - 5000) / 1000;
    utimesSync(lock, made, made);
    // Older than any start takes to write its pid (held until 20 s old before 2026-12-05: a stall).
    const run = await place.run(["list"]);
    expect({ exit: run.exitCode, stderr: run.stderr }).toEqual({ exit: 0, stderr: "" });
    expect(place.daemons()).toHaveLength(1);
    expect(readdirSync(dirname(lock)).filter((name) => name.startsWith(basename(lock)))).toEqual([]);
  });

  it("a command on a tmux server that is not running says so of the server as it was named (-L, -S or the default), and starts no daemon; open starts that server", async () => {
    const name = `panescope-none-${process.pid}-${Date.now()}`;
    const place = shellPlace(name);
    const tmuxDir = mkdtempSync(join(tmpdir(), "panescope-tmuxdir-"));
    try {
      // A tmux that notes each time it runs: a daemon would run it (`tmux -V`) before it is ready.
      const tmuxNoting = join(tmuxDir, "tmux-noting");
      writeFileSync(tmuxNoting, `#!/bin/sh\necho "$*" >> "$0.ran"\nexec tmux "$@"\n`, { mode: 0o700 });
      const read = await place.run(["read", "%0", "--tmux", tmuxNoting]);
      expect(read.exitCode).toBe(4);
      expect(read.stderr).toBe(`panescope: error (no-server): the tmux server of -L ${name} is not running: start it with \`tmux -L ${name} new-session -d\`, or name another with -L NAME or -S PATH`);
      expect(existsSync(`${tmuxNoting}.ran`), "a daemon was started").toBe(false);
      expect(place.daemons()).toEqual([]);
      expect(readdirSync(join(place.runtime, "panescope"))).toEqual([]);
      const run = (args: string[], env: Record<string, string>) => execa(process.execPath, [CLI, ...args], { env: { ...place.env, PANESCOPE_SOCKET: "", ...env }, reject: false, cwd: tmuxDir });
      // No XDG_RUNTIME_DIR: the daemon's directory would be beside the socket, in a directory that does not exist.
      const bySocket = await run(["list", "-S", "./no/such.sock"], { XDG_RUNTIME_DIR: "" });
      expect(bySocket.stderr).toContain("the tmux server of -S ./no/such.sock is not running: start it with `tmux -S ./no/such.sock new-session -d`");
      // The default server, in a TMUX_TMPDIR of the test's own (never the user's).
      const byDefault = await run(["list"], { TMUX_TMPDIR: tmuxDir });
      expect(byDefault.stderr).toContain("the default tmux server is not running: start it with `tmux new-session -d`");
      expect([bySocket.exitCode, byDefault.exitCode]).toEqual([4, 4]);
      const opened = await place.run(["open", "--", "sh"]);
      expect(opened.exitCode, opened.stderr).toBe(0);
      expect(opened.stdout).toBe("%0");
      expect((await execa("tmux", ["-L", name, "list-panes", "-a", "-F", "#{pane_id}"])).stdout).toBe("%0");
    } finally {
      await execa("tmux", ["-L", name, "kill-server"], { reject: false });
      rmSync(socketFile(name), { force: true });
      await place.clean();
      rmSync(tmuxDir, { recursive: true, force: true });
    }
  });

  it("a daemon that stops because its tmux server is gone removes its log, and keeps the readers' cursors under a line naming the server", async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["read", "%0", "--as", "k"])).exitCode).toBe(0);
    await afterServerKilled(tmux, place);
    const paths = daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env });
    // The readers' cursors stay, for a server started again on that socket: faults.test.ts.
    expect(readdirSync(paths.dir)).toEqual([basename(paths.readers)]);
    expect(readFileSync(paths.readers, "utf8").split("\n")[0]).toBe(JSON.stringify({ tmuxServer: paths.tmuxSocket }));
  });

  it("a daemon that stops because its tmux server is gone keeps a log that tells of a daemon before it that did not stop cleanly", async () => {
    const { tmux, place } = await setUp();
    expect((await place.run(["list"])).exitCode).toBe(0);
    const [killed = 0] = place.daemons();
    process.kill(killed, "SIGKILL");
    await gone(killed);
    expect((await place.run(["list"])).exitCode).toBe(0);
    const [last = 0] = place.daemons();
    await afterServerKilled(tmux, place);
    const text = readFileSync(logOf(tmux, place), "utf8");
    expect(text).toContain(`daemon pid ${killed} starting`);
    expect(text).toContain(`daemon pid ${last} stopped: the tmux server`);
    expect(text).toContain(`the log is kept: daemon pid ${killed} in it did not stop cleanly`);
  });
});
