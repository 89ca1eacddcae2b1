// A golden session its test never closes: the private tmux server ends with the process that
// started it, however that process ends (exit without close(), an uncaught exception, SIGKILL of a
// test worker, even between the server's start and the control client's attach), and the owner's
// watchdog removes its socket file and HOME; while a person's own `tmux attach` to look at a live
// session leaves it running, and one owner's death leaves another's scenario alone.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startPaneSession } from "../../../src/golden/session.js";
import { socketFile, waitFor } from "../../support/tmux-fixture.js";

const DIST = resolve(import.meta.dirname, "../../../dist/golden");
const GOLDEN = pathToFileURL(join(DIST, "index.js")).href;
const LAUNCH = pathToFileURL(join(DIST, "launch.js")).href;
const WATCHDOG = pathToFileURL(join(DIST, "watchdog.js")).href;
const children: ChildProcess[] = [];
const sockets: string[] = [];
const dirs: string[] = [];

// Without the guard under test, what the owner left is removed here, not left on the machine.
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const name of sockets.splice(0)) {
    await execa("tmux", ["-L", name, "-f", "/dev/null", "kill-server"], { reject: false });
    await rm(socketFile(name), { force: true });
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

type Ending = "exit" | "throw" | "SIGKILL";

// The owner opens a session, says where its server is, and on a line from us ends as told, never
// closing it. With "launched" it stops where launchPane leaves a scenario: the server started, no
// control client attached yet (so no exit-unattached), the window a SIGKILL must not escape.
const OWNER = (launched: boolean): string => `
import { startPaneSession } from ${JSON.stringify(GOLDEN)};
import { launchPane } from ${JSON.stringify(LAUNCH)};
import { watchdogPid } from ${JSON.stringify(WATCHDOG)};
const options = { size: { cols: 20, rows: 3 }, command: ["sleep", "600"] };
const { server, paneId } = ${launched ? "await launchPane(options)" : "await startPaneSession(options)"};
const [pids] = await server.run(["display-message", "-p", "-t", paneId, "#{pid} #{pane_pid}"]);
process.stdout.write([server.socketName, pids, watchdogPid()].join(" ") + "\\n");
process.stdin.once("data", (line) => {
  if (String(line).trim() === "exit") process.exit(0);
  throw new Error("a test that forgot its session");
});
`;

/** Whether a process runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

interface Owner {
  child: ChildProcess;
  name: string;
  serverPid: number;
  panePid: number;
  watchdogPid: number;
  /** The owner's TMPDIR, where its program's HOME is made. */
  tmp: string;
  exited: Promise<unknown>;
}

async function owner(launched = false): Promise<Owner> {
  // The program's HOME is made under the owner's TMPDIR: ours to remove, as the owner cannot.
  const tmp = await mkdtemp(join(tmpdir(), "panescope-owner-test-"));
  dirs.push(tmp);
  const child = spawn(process.execPath, ["--input-type=module", "-e", OWNER(launched)], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp } });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise((done) => child.once("exit", done));
  const stdout = child.stdout;
  if (stdout === null) throw new Error("spawned without a stdout pipe");
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: stdout }).once("line", done);
    void exited.then(() => fail(new Error(`the owner ended before its session started: ${stderr}`)));
  });
  const [name = "", serverPid = "", panePid = "", watchdogPid = ""] = line.split(" ");
  sockets.push(name);
  return { child, name, serverPid: Number(serverPid), panePid: Number(panePid), watchdogPid: Number(watchdogPid), tmp, exited };
}

/** Waits (a deadline against a hang only) until nothing of the owner's scenario is left. */
async function nothingLeft(gone: Owner): Promise<void> {
  const { name, serverPid, panePid, watchdogPid, tmp } = gone;
  await waitFor(() => !running(serverPid), 60_000, `tmux server ${serverPid} to end after its owner`);
  // And the program with it: its terminal hung up, as when a window closes.
  await waitFor(() => !running(panePid), 60_000, `the pane's process ${panePid} to end with its server`);
  await waitFor(() => !existsSync(socketFile(name)), 60_000, `the socket file ${socketFile(name)} to be removed`);
  await waitFor(async () => (await readdir(tmp)).length === 0, 60_000, `the program's HOME under ${tmp} to be removed`);
  // The watchdog's last looks for a straggling client's server take a few seconds; then it is gone too.
  await waitFor(() => !running(watchdogPid), 60_000, `the watchdog ${watchdogPid} to exit`);
  const answer = await execa("tmux", ["-L", name, "-f", "/dev/null", "list-sessions"], { reject: false });
  expect(answer.exitCode, `no server answers on ${name}`).not.toBe(0);
  expect(existsSync(socketFile(name))).toBe(false);
}

describe("a golden session never closed", () => {
  for (const ending of ["exit", "throw", "SIGKILL"] satisfies Ending[]) {
    it(`ends its tmux server and program and removes its files when its owner ends (${ending})`, { timeout: 120_000 }, async () => {
      const gone = await owner();
      expect(running(gone.serverPid) && running(gone.panePid) && running(gone.watchdogPid)).toBe(true);
      if (ending === "SIGKILL") gone.child.kill("SIGKILL");
      else gone.child.stdin?.write(`${ending}\n`);
      await gone.exited;
      await nothingLeft(gone);
    });
  }

  it("ends its tmux server and removes its files when its owner is killed after the server started, before the attach", { timeout: 120_000 }, async () => {
    // Another owner's scenario (this worker's own) runs meanwhile: only the dead owner's is touched.
    const mine = await startPaneSession({ size: { cols: 30, rows: 4 }, command: ["sh"] });
    sockets.push(mine.socketName);
    try {
      const gone = await owner(true);
      expect(running(gone.serverPid) && running(gone.panePid) && running(gone.watchdogPid)).toBe(true);
      gone.child.kill("SIGKILL");
      await gone.exited;
      await nothingLeft(gone);
      await mine.waitFor({ kind: "text", text: "$" }, 20_000);
      await mine.typeText("echo still here\n");
      await mine.waitFor({ kind: "text", text: "still here\n$" }, 20_000);
    } finally {
      await mine.close();
    }
  });

  it("stays up while its owner lives, when a person's own client attaches to look and detaches again", { timeout: 60_000 }, async () => {
    const session = await startPaneSession({ size: { cols: 30, rows: 4 }, command: ["sh"] });
    sockets.push(session.socketName);
    try {
      const clients = async (): Promise<number> => (await session.server.run(["list-clients", "-F", "#{client_name}"])).length;
      const person = spawn("tmux", ["-L", session.socketName, "-C", "attach-session", "-t", session.paneId], { stdio: ["pipe", "ignore", "ignore"] });
      children.push(person);
      const detached = new Promise((done) => person.once("exit", done));
      await waitFor(async () => (await clients()) === 2, undefined, "the person's client to attach");
      person.stdin?.end();
      await detached;
      await waitFor(async () => (await clients()) === 1, undefined, "the person's client to leave");
      await session.waitFor({ kind: "text", text: "$" }, 20_000);
      await session.typeText("echo still here\n");
      await session.waitFor({ kind: "text", text: "still here\n$" }, 20_000);
    } finally {
      await session.close();
    }
  });
});
