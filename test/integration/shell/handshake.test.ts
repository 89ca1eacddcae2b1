// The hello handshake and the daemon's lifetime: a daemon of another protocol is restarted when the
// caller is its only client and named (with what to do) when it is not; a daemon with no client
// for its quiet period exits and removes its socket.
import { existsSync, mkdirSync } from "node:fs";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { daemonPaths } from "../../../src/shell/paths.js";
import { startServer, type TestServer } from "../../support/tmux-fixture.js";
import { gone, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";

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

/** Answers every hello with protocol 0 and the client count given; SIGTERM ends it (Node's default). */
const OLDER_DAEMON = `
const net = require("node:net");
const [path, clients] = process.argv.slice(1);
process.umask(0o077);
net.createServer((socket) => {
  socket.setEncoding("utf8");
  socket.on("data", (line) => {
    const { id } = JSON.parse(line.split("\\n")[0]);
    socket.write(JSON.stringify({ jsonrpc: "2.0", id, result: { protocol: 0, version: "0.0.1", pid: process.pid, clients: Number(clients), startedAt: 0 } }) + "\\n");
  });
}).listen(path, () => console.log("ready"));
`;

/** An "older daemon" on the daemon's socket, in a child process of the test. */
async function olderDaemon(place: ShellPlace, name: string, clients: number): Promise<number> {
  const paths = daemonPaths({ socketName: name }, { ...process.env, ...place.env });
  mkdirSync(paths.dir, { mode: 0o700 });
  fake = execa(process.execPath, ["-e", OLDER_DAEMON, paths.socket, String(clients)], { reject: false, buffer: false });
  await new Promise<void>((resolve) => fake?.stdout?.once("data", () => resolve()));
  return fake.pid ?? 0;
}

describe("the hello handshake", () => {
  it("a daemon of another protocol with other clients is left running, and the message says what to do", async () => {
    tmux = await startServer({ command: "sh" });
    place = shellPlace(tmux.name);
    const pid = await olderDaemon(place, tmux.name, 2);
    const refused = await place.run(["list"]);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain(`speaks protocol 0, this panescope 0.1.0 speaks 1, and 1 other client(s) use it: stop them (or \`kill ${pid}\`)`);
    expect(fake?.exitCode).toBe(null);
  });

  it("a daemon of another protocol whose only client is the caller is stopped and a new one started", async () => {
    tmux = await startServer({ command: "sh" });
    place = shellPlace(tmux.name);
    await olderDaemon(place, tmux.name, 1);
    const listed = await place.run(["list"]);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect((await fake)?.signal).toBe("SIGTERM");
    expect(place.daemons()).toHaveLength(1);
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
});
