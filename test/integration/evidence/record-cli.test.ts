// `panescope record` as a person runs it (the built dist/cli.js): it ends by itself when the pane
// closes, or on Ctrl-C (SIGINT), with a valid cast and a summary line on stderr; a recording that
// cannot start writes nothing, and says what to do.
import { randomBytes } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCast } from "../../../src/evidence/cast.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const CLI = resolve(import.meta.dirname, "../../../dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "panescope-record-cli-"));
/** tmux servers a test stopped (SIGSTOP): let go on before they are killed. */
const stopped = new Set<number>();
afterEach(async () => {
  for (const pid of stopped) process.kill(pid, "SIGCONT");
  stopped.clear();
  await killAllServers();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recordCli(test: TestServer | string, pane: string, file: string, ...more: string[]) {
  const server = typeof test === "string" ? test : test.name;
  return execa(process.execPath, [CLI, "record", ...(pane === "" ? [] : [pane]), "-o", file, "-L", server, ...more], { reject: false, timeout: 30_000, stdin: "ignore" });
}

async function started(file: string): Promise<void> {
  await waitFor(() => existsSync(file) && readFileSync(file, "utf8").includes("\n["), 15_000, "the recording's first screen");
}

describe("panescope record (command line)", () => {
  it("ends by itself when the pane's program exits, and the cast has what it printed", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    await test.run(["split-window", "-t", "main", "sh"]); // the window outlives the recorded pane
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main.0", "#{pane_id}"]);
    const file = join(dir, "closes.cast");
    const run = recordCli(test, pane, file);
    await started(file);
    // Printed before the exit, not with it: tmux 3.5a drops output it had not sent when the pane dies.
    await test.run(["send-keys", "-t", pane, "-l", "echo last words\n"]);
    await waitFor(() => readFileSync(file, "utf8").includes("last words"), 15_000, "the output in the cast");
    await test.run(["send-keys", "-t", pane, "-l", "exit\n"]);
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`recorded ${pane} to .*closes\\.cast: \\d+ events? in [\\d.]+ s \\(${pane} closed`));
    const output = parseCast(readFileSync(file, "utf8")).events.map((e) => e[2]).join("");
    expect(output).toContain("last words");
  });

  it("Ctrl-C (SIGINT) ends it with exit status 0 and a cast that parses", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    const file = join(dir, "sigint.cast");
    const run = recordCli(test, pane, file);
    await started(file);
    run.kill("SIGINT");
    const result = await run;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/\(stopped\)/);
    expect(parseCast(readFileSync(file, "utf8")).header).toMatchObject({ version: 2, width: 40, height: 5 });
  });

  it("a second Ctrl-C ends at once a recording whose tmux does not answer (stopped): exit 130, the cast valid up to there", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    const file = join(dir, "deaf.cast");
    const run = recordCli(test, pane, file);
    let said = "";
    run.stderr?.on("data", (chunk: Buffer) => (said += chunk.toString()));
    await started(file);
    const { pid } = await test.server.serverGeneration();
    process.kill(pid, "SIGSTOP");
    stopped.add(pid);
    // The first stops the recording, which waits for tmux to let the pane go: here, for ever.
    run.kill("SIGINT");
    await waitFor(() => said.includes("Ctrl-C again stops at once"), 15_000, "record to say how to stop at once");
    run.kill("SIGINT");
    const result = await run;
    expect([result.exitCode, result.timedOut]).toEqual([130, false]);
    expect(result.stderr).toMatch(/stopped at once, without waiting for tmux; a cast begun in .*deaf\.cast is valid up to its last event$/);
    expect(parseCast(readFileSync(file, "utf8")).header).toMatchObject({ version: 2, width: 40, height: 5 });
  });

  it("a cast that can no longer be written (a pipe whose reader left): the recording ends there, exit 2, saying so", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
    const fifo = join(dir, "reader-leaves.cast");
    await execa("mkfifo", [fifo]);
    // The reader takes the first lines (the header, the screen), then goes away: closed, so the
    // recorder's next write has no reader (EPIPE).
    const first = new Promise<string>((resolve, reject) => {
      const stream = createReadStream(fifo, { encoding: "utf8" });
      stream.once("data", (chunk) => {
        stream.once("close", () => resolve(String(chunk)));
        stream.destroy();
      });
      stream.once("error", reject);
    });
    const run = recordCli(test, pane, fifo, "--duration", "30");
    expect(await first).toContain('"version":2');
    // Output the pane prints now is that write.
    await test.run(["send-keys", "-t", pane, "-l", "echo after\n"]);
    const result = await run;
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^panescope: cannot write the cast to .*reader-leaves\.cast \(EPIPE[^)]*\): the recording stopped after \d+ events?, and the cast is valid up to there$/);
  });

  it.skipIf(!existsSync("/dev/full"))("a cast whose header cannot be written (a disk already full): exit 2, saying the file is no cast", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const result = await recordCli(test, "", "/dev/full", "--duration", "30");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^panescope: cannot write the cast to \/dev\/full \(ENOSPC[^)]*\): not even its header was written, so the file is no cast; free some space or name another file with -o$/);
  });

  it("a pane that is not there: exit 2, the file of that name left as it was, and panescope list named", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const file = join(dir, "keep.cast");
    writeFileSync(file, "an earlier recording\n");
    const result = await recordCli(test, "%999", file, "--duration", "5");
    expect(result.exitCode).toBe(2);
    expect(readFileSync(file, "utf8")).toBe("an earlier recording\n");
    expect(result.stderr).toBe(`panescope: error (unknown-pane): no pane %999 on the tmux server of -L ${test.name}: \`panescope list -L ${test.name}\` shows the panes there are`);
  });

  it("no tmux server on -L NAME: exit 2, no file made, and how to start that server", { timeout: 60_000 }, async () => {
    const name = `panescope-none-${process.pid}-${randomBytes(4).toString("hex")}`; // never started
    const file = join(dir, "never.cast");
    const result = await recordCli(name, "", file);
    expect(result.exitCode).toBe(2);
    expect(existsSync(file)).toBe(false);
    expect(result.stderr).toContain(`start it with \`tmux -L ${name} new-session -d\``);
  });

  it("-o in a folder that does not exist: exit 2, saying so", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const file = join(dir, "no-such-folder", "x.cast");
    const result = await recordCli(test, "", file, "--duration", "5");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`panescope: error (bad-input): cannot write the cast to ${file}: the folder ${join(dir, "no-such-folder")} does not exist: create it, or name a file in a folder that does`);
  });

  it("-o naming a folder that does not exist (ending in /) or one that makes no files: exit 2, saying what is there", { timeout: 60_000 }, async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh", env: { PS1: "$ " } });
    const folder = `${join(dir, "not-yet")}/`;
    const slash = await recordCli(test, "", folder, "--duration", "5");
    expect([slash.exitCode, slash.stderr]).toEqual([
      2,
      `panescope: error (bad-input): cannot write the cast to ${folder}: the folder ${folder} does not exist, and -o names a file: create it and name a file in it (-o ${folder}pane.cast)`,
    ]);
    const proc = await recordCli(test, "", "/proc/x.cast", "--duration", "5");
    expect(proc.exitCode).toBe(2);
    expect(proc.stderr).not.toContain("does not exist");
    expect(proc.stderr).toMatch(/^panescope: error \(bad-input\): cannot write the cast to \/proc\/x\.cast: .*: name a file in a folder you can write$/);
  });
});
