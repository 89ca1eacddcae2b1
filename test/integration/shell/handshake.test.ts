// The hello handshake and the daemon's lifetime: a daemon of another protocol is restarted when the
// caller is its only client and named (with what to do) when it is not; a read-only call rides
// with the hello but only a welcome of our protocol lets its answer through; a daemon with no
// client for its quiet period exits and removes its socket, and so does one whose tmux server is
// gone once its last client leaves.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { daemonPaths } from "../../../src/shell/paths.js";
import { startServer, type TestServer } from "../../support/tmux-fixture.js";
import { daemonLogsOnFailure, gone, shellPlace, type Run, type ShellPlace } from "../../support/shell-daemon.js";

let tmux: TestServer | undefined;
let place: ShellPlace | undefined;
let fake: ResultPromise<{ reject: false; buffer: false }> | undefined;

afterEach(async () => {
  if (fake?.pid !== undefined && fake.exitCode === null) fake.kill("SIGKILL");
  await fake;
  await place?.clean();
  await tmux?.kill();
  fake = tmux = place = undefined;
});
// Registered after the clean-up: after-hooks run last first, so the logs are read before they go.
daemonLogsOnFailure(() => place);

/**
 * Answers every hello with protocol 0 and the client count given (or, with clients "refuse", with
 * an error), and every other request with a tool result a CLI must never print; writes each
 * request's method to the log file. SIGTERM ends it (Node's default).
 */
const OLDER_DAEMON = `
const fs = require("node:fs");
const net = require("node:net");
const [path, clients, log] = process.argv.slice(1);
const welcome = { protocol: 0, version: "0.0.1", pid: process.pid, clients: Number(clients), startedAt: 0 };
process.umask(0o077);
net.createServer((socket) => {
  let buffered = "";
  socket.setEncoding("utf8");
  socket.on("error", () => socket.destroy()); // a client gone before an answer: not this daemon's end
  socket.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\\n");
    buffered = lines.pop();
    for (const line of lines) {
      const { id, method } = JSON.parse(line);
      fs.appendFileSync(log, method + "\\n");
      const answer = method !== "panescope/hello" ? { result: { content: [{ type: "text", text: "AN ANSWER FROM ANOTHER PROTOCOL" }] } }
        : clients === "refuse" ? { error: { code: -32601, message: "Method not found" } } : { result: welcome };
      socket.write(JSON.stringify({ jsonrpc: "2.0", id, ...answer }) + "\\n");
    }
  });
}).listen(path, () => console.log("ready"));
`;

/** An "older daemon" on the daemon's socket, in a child process of the test; resolves with its pid and the methods it was sent so far. */
async function olderDaemon(place: ShellPlace, name: string, clients: number | "refuse"): Promise<{ pid: number; methods: () => string[] }> {
  const paths = daemonPaths({ socketName: name }, { ...process.env, ...place.env });
  mkdirSync(paths.dir, { mode: 0o700 });
  const log = join(place.runtime, "older-daemon.log");
  writeFileSync(log, "");
  fake = execa(process.execPath, ["-e", OLDER_DAEMON, paths.socket, String(clients), log], { reject: false, buffer: false });
  await new Promise<void>((resolve) => fake?.stdout?.once("data", () => resolve()));
  return { pid: fake.pid ?? 0, methods: () => readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

/** A private tmux server with an "older daemon" on its daemon socket, and `panescope ARGS` run against it. */
async function againstOlder(clients: number | "refuse", args: string[]): Promise<{ run: Run; pid: number; methods: string[] }> {
  tmux = await startServer({ command: "sh" });
  place = shellPlace(tmux.name);
  const older = await olderDaemon(place, tmux.name, clients);
  const run = await place.run(args);
  return { run, pid: older.pid, methods: older.methods() };
}

describe("the hello handshake", () => {
  it("a daemon of another protocol with other clients is left running, and the message says what to do", async () => {
    const { run, pid } = await againstOlder(2, ["list"]);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain(`speaks protocol 0, this panescope 0.1.0 speaks 1, and 1 other client(s) use it: stop them (or \`kill ${pid}\`)`);
    expect(fake?.exitCode).toBe(null);
  });

  it("a read's call rides with the hello, and a daemon of another protocol's answer to it is never printed", async () => {
    const { run, methods } = await againstOlder(2, ["read", "%0"]);
    expect([run.exitCode, run.stdout]).toEqual([4, ""]);
    expect(run.stderr).toContain("speaks protocol 0, this panescope 0.1.0 speaks 1");
    expect(methods).toEqual(["panescope/hello", "tools/call"]);
  });

  it("a send waits for the daemon's welcome: nothing is typed through a daemon of another protocol", async () => {
    const { run, methods } = await againstOlder(2, ["send", "%0", "--text", "echo typed"]);
    expect(run.exitCode).toBe(4);
    expect(run.stderr).toContain("speaks protocol 0, this panescope 0.1.0 speaks 1");
    expect(methods).toEqual(["panescope/hello"]);
  });

  it("a hello refused outright gives the clear message, not the answer to the call sent with it", async () => {
    const { run, methods } = await againstOlder("refuse", ["read", "%0"]);
    expect([run.exitCode, run.stdout]).toEqual([4, ""]);
    expect(run.stderr).toContain("did not accept panescope/hello (Method not found): it is another program or a much older panescope; stop it and run the command again");
    expect(methods).toEqual(["panescope/hello", "tools/call"]);
  });

  it("a daemon of another protocol whose only client is the caller is stopped and a new one started", async () => {
    const { run } = await againstOlder(1, ["list"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await fake)?.signal).toBe("SIGTERM");
    expect(place?.daemons()).toHaveLength(1);
  });
});

describe("the daemon's lifetime", () => {
  it("exits after its quiet period with no client (PANESCOPE_DAEMON_IDLE_MS) and removes its socket", async () => {
    tmux = await startServer({ command: "sh" });
    place = shellPlace(tmux.name);
    const read = await place.run(["read", "%0"], { PANESCOPE_DAEMON_IDLE_MS: "50" });
    expect(read.exitCode, read.stderr).toBe(0);
    const [pid] = place.daemons();
    if (pid !== undefined) await gone(pid);
    expect(place.daemons()).toEqual([]);
    expect(existsSync(daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env }).socket)).toBe(false);
  });

  it("exits once its tmux server is gone and its last client has left, and removes its socket, and its log (it stopped cleanly)", async () => {
    tmux = await startServer({ command: "sh" });
    place = shellPlace(tmux.name);
    // The default quiet period (15 minutes): only the server's end can make it exit within the test.
    const read = await place.run(["read", "%0"]);
    expect(read.exitCode, read.stderr).toBe(0);
    const [pid] = place.daemons();
    expect(pid).toBeDefined();
    await tmux.run(["kill-server"]).catch(() => undefined);
    // A command against the dead server: it fails, and its leaving is the daemon's last client leaving.
    const list = await place.run(["list"]);
    expect(list.exitCode).toBe(4);
    // Every daemon of this server (one, unless its periodic look ended it before the command came).
    for (const daemon of [pid ?? 0, ...place.daemons()]) await gone(daemon);
    const paths = daemonPaths({ socketName: tmux.name }, { ...process.env, ...place.env });
    // A log that tells of a crash is kept: daemon-start.test.ts.
    expect(existsSync(paths.log)).toBe(false);
    expect(existsSync(paths.socket)).toBe(false);
  });
});
