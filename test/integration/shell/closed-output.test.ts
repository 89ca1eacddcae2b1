// A shell command whose stdout cannot take its answer: a pipe whose reader left (`panescope wait …
// | head -2`) ends it with status 141, as SIGPIPE ends a program, and a full disk with status 4 and
// a line that says the answer is lost; never Node's unhandled 'error' (a stack trace, status 1,
// which a script reads as "timed out").
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../support/tmux-fixture.js";
import { CLI, daemonLogsOnFailure, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";

let tmux: TestServer;
let place: ShellPlace;

beforeAll(async () => {
  tmux = await startServer({ command: "sh", cols: 60, rows: 10 });
  place = shellPlace(tmux.name);
  // The daemon started, and the prompt on the screen for the waits below to match at once.
  const waited = await place.run(["wait", "%0", "--as", "setup", "--for", "#", "--timeout", "20000"]);
  expect(waited.exitCode, waited.stderr).toBe(0);
});

afterAll(async () => {
  await place.clean();
  await tmux.kill();
});

daemonLogsOnFailure(() => place);

/** Runs `panescope ARGS -L <server>` with stdout to `stdout` ("closed": a pipe this side closes at once). */
function runTo(args: string[], stdout: "closed" | number): Promise<{ exitCode: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args.slice(0, 1), "-L", tmux.name, ...args.slice(1)], { env: { ...process.env, ...place.env }, stdio: ["ignore", stdout === "closed" ? "pipe" : stdout, "pipe"] });
  // Closed before the child can have written: its answer needs node started and the daemon asked.
  if (stdout === "closed") child.stdout?.destroy();
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (exitCode) => resolve({ exitCode, stderr }));
  });
}

describe("a shell command whose stdout cannot take the answer", () => {
  it("exits 141 when the pipe's reader has gone, as a program SIGPIPE ended, and prints no stack trace", async () => {
    const waited = await runTo(["wait", "%0", "--as", "piped", "--for", "#"], "closed");
    expect(waited).toEqual({ exitCode: 141, stderr: "" });
    const listed = await runTo(["list"], "closed");
    expect(listed).toEqual({ exitCode: 141, stderr: "" });
  });

  it("exits 4 on a full disk and says the answer is lost and that the reader's cursor moved past it", async () => {
    const full = openSync("/dev/full", "w");
    try {
      const read = await runTo(["read", "%0", "--as", "full-disk"], full);
      expect(read.exitCode).toBe(4);
      expect(read.stderr).toBe("panescope: the answer could not be written to stdout (ENOSPC: no space left on device, write): the answer is lost, and this reader's cursor moved past it\n");
    } finally {
      closeSync(full);
    }
  });
});
