// `panescope golden` stopped before its end, as a person or a pipe stops it (the built dist/cli.js):
// Ctrl-C, SIGTERM or a reader gone (`| head -1`) still remove the scenario's server, socket, HOME
// and program, and the exit status says how it ended.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { leftoverSockets, tapeDir } from "../../support/golden-tapes.js";
import { socketFile, waitFor } from "../../support/tmux-fixture.js";

const CLI = resolve(import.meta.dirname, "../../../dist/cli.js");
const dirs: string[] = [];
const children: ChildProcess[] = [];
const homes: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
// Without the cleanup under test, what the run left is removed here, not left on the machine.
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill("SIGKILL");
    for (const name of leftoverSockets(child.pid)) {
      await execa("tmux", ["-L", name, "-f", "/dev/null", "kill-server"], { reject: false });
      await rm(socketFile(name), { force: true });
    }
  }
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

interface Program {
  pid: number;
  home: string;
}

/** A tape whose program says where it is (its pid and $HOME, in `info`) and then outlives any run. */
async function slowTape(): Promise<{ tape: string; info: string }> {
  const dir = await tapeDir({
    "slow.tape": ["size 20x3", "timeout 60s", 'run echo "$$ $HOME" > info.tmp && mv info.tmp info && exec sleep 60', 'wait "never shown"', ""].join("\n"),
  });
  dirs.push(dir);
  return { tape: join(dir, "slow.tape"), info: join(dir, "info") };
}

/**
 * A run that fails (a broken tape's FAIL lines at once, then a snapshot that differs from its golden)
 * and holds its second tape's program until `go` is written to a FIFO, so a test can close stdout
 * between the first lines and the rest. The broken tape also leaves out the stale-golden scan, so the
 * FAIL block, the summary and `main`'s return follow one another with no I/O between: their EPIPE is
 * reported only after `main` has returned, every time.
 */
async function failingTapes(): Promise<{ dir: string; info: string; go: string }> {
  const dir = await tapeDir({
    "a-broken.tape": ["size 20x3", 'run ["sh"]', "Sleep 500ms", ""].join("\n"),
    "b-differs.tape": [
      "size 20x3",
      "timeout 30s",
      'run echo "$$ $HOME" > info.tmp && mv info.tmp info && read go < go.fifo && seq 1 3 && exec sleep 60',
      'wait "3"',
      "snapshot numbers",
      "",
    ].join("\n"),
    "b-differs/numbers.golden": ["panescope golden v2", "name: numbers", "size: 20x3", "cursor: 0,2", "alternate: no", "colors: off", `┌${"─".repeat(20)}┐`, ...["one", "two", "three"].map((row) => `│${row.padEnd(20)}│`), `└${"─".repeat(20)}┘`, ""].join("\n"),
  });
  dirs.push(dir);
  await execa("mkfifo", [join(dir, "go.fifo")]);
  return { dir, info: join(dir, "info"), go: join(dir, "go.fifo") };
}

function golden(tape: string): { child: ChildProcess; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [CLI, "golden", tape], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return { child, exit, stderr: () => stderr };
}

async function programStarted(info: string): Promise<Program> {
  await waitFor(() => existsSync(info), undefined, "the program's pid and HOME");
  const [pid = "", home = ""] = readFileSync(info, "utf8").trim().split(" ");
  homes.push(home);
  return { pid: Number(pid), home };
}

/** Whether a process runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function expectRemoved(program: Program, goldenPid: number | undefined): Promise<void> {
  // The program dies of the server's SIGHUP a moment after kill-server; a live one sleeps 60 s.
  await waitFor(() => !running(program.pid), undefined, `program ${program.pid} to end`);
  expect(existsSync(program.home)).toBe(false);
  expect(leftoverSockets(goldenPid)).toEqual([]);
}

describe("panescope golden, stopped before its end", () => {
  it("Ctrl-C (SIGINT) removes the running scenario and exits 130", { timeout: 60_000 }, async () => {
    const { tape, info } = await slowTape();
    const run = golden(tape);
    const program = await programStarted(info);
    expect(running(program.pid)).toBe(true);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    await expectRemoved(program, run.child.pid);
  });

  it("SIGTERM removes the running scenario and exits 143", { timeout: 60_000 }, async () => {
    const { tape, info } = await slowTape();
    const run = golden(tape);
    const program = await programStarted(info);
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(143);
    await expectRemoved(program, run.child.pid);
  });

  it("a reader gone (EPIPE) ends the run quietly, removes the scenario and exits 141", { timeout: 60_000 }, async () => {
    const { tape, info } = await slowTape();
    const run = golden(tape);
    // Closed before anything is written: the first line (the 5 s "still running" one) meets EPIPE.
    run.child.stdout?.destroy();
    const program = await programStarted(info);
    expect(await run.exit).toBe(141);
    expect(run.stderr()).toBe("");
    await expectRemoved(program, run.child.pid);
  });

  it("a reader gone after the first lines of a failing run ends it quietly with 141, though the last lines' EPIPE comes after the run", { timeout: 60_000 }, async () => {
    const { dir, info, go } = await failingTapes();
    const run = golden(dir);
    const stdout = run.child.stdout;
    if (stdout === null) throw new Error("spawned without a stdout pipe");
    // As `| head -2` does: read the first lines (the broken tape's FAIL), then close the read end.
    const first = await new Promise<string>((done) => stdout.once("data", (chunk: Buffer) => done(chunk.toString())));
    expect(first).toMatch(/^FAIL .*a-broken\.tape \(tape errors\)/);
    await new Promise((closed) => {
      stdout.once("close", closed);
      stdout.destroy();
    });
    const program = await programStarted(info);
    // Only now the program prints, and the run writes its diff, summary and totals to no reader.
    await writeFile(go, "go\n");
    expect(await run.exit).toBe(141);
    expect(run.stderr()).toBe("");
    await expectRemoved(program, run.child.pid);
  });
});
