// A golden session its test never closes: the private tmux server ends with the process that
// started it, however that process ends (exit without close(), an uncaught exception, SIGKILL of a
// test worker), while a person's own `tmux attach` to look at a live session leaves it running.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startPaneSession } from "../../../src/golden/session.js";
import { socketFile, waitFor } from "../../support/tmux-fixture.js";

const GOLDEN = pathToFileURL(resolve(import.meta.dirname, "../../../dist/golden/index.js")).href;
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

// The owner opens a session, says where its server is, and on a line from us ends as told, never closing it.
const OWNER = `
import { startPaneSession } from ${JSON.stringify(GOLDEN)};
const session = await startPaneSession({ size: { cols: 20, rows: 3 }, command: ["sleep", "600"] });
const [pids] = await session.server.run(["display-message", "-p", "-t", session.paneId, "#{pid} #{pane_pid}"]);
process.stdout.write(session.socketName + " " + pids + "\\n");
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

async function owner(): Promise<{ child: ChildProcess; serverPid: number; panePid: number; exited: Promise<unknown> }> {
  // The program's HOME is made under the owner's TMPDIR: ours to remove, as the owner cannot.
  const tmp = await mkdtemp(join(tmpdir(), "panescope-owner-test-"));
  dirs.push(tmp);
  const child = spawn(process.execPath, ["--input-type=module", "-e", OWNER], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp } });
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
  const [name = "", serverPid = "", panePid = ""] = line.split(" ");
  sockets.push(name);
  return { child, serverPid: Number(serverPid), panePid: Number(panePid), exited };
}

describe("a golden session never closed", () => {
  for (const ending of ["exit", "throw", "SIGKILL"] satisfies Ending[]) {
    it(`ends its tmux server and program when its owner ends (${ending})`, { timeout: 90_000 }, async () => {
      const { child, serverPid, panePid, exited } = await owner();
      expect(running(serverPid) && running(panePid)).toBe(true);
      if (ending === "SIGKILL") child.kill("SIGKILL");
      else child.stdin?.write(`${ending}\n`);
      await exited;
      // A deadline against a hang only: the server goes once the owner's control client has ended.
      await waitFor(() => !running(serverPid), 60_000, `tmux server ${serverPid} to end after its owner`);
      // And the program with it: its terminal hung up, as when a window closes.
      await waitFor(() => !running(panePid), 60_000, `the pane's process ${panePid} to end with its server`);
    });
  }

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
