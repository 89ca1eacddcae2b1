// One-shot client processes (tmux/one-shot.ts): the answer comes when the process has ended and what
// it wrote is read, even while another process still holds its pipes (tmux holds a client's stdio
// until it notices the client left; here a background `sleep` holds them).
import { afterEach, describe, expect, it } from "vitest";
import { runOneShot } from "../../src/tmux/one-shot.js";

const holders: number[] = [];

afterEach(() => {
  for (const pid of holders.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

describe("runOneShot", () => {
  it("answers once the process ended, with all it wrote, while another process holds its pipes", async () => {
    // The shell prints its holder's pid and a line of 100 KiB (more than a pipe holds), then exits;
    // the holder keeps stdout and stderr open for ten minutes.
    const script = 'sleep 600 & echo "$!"; head -c 102400 /dev/zero | tr "\\0" x; echo; echo warned >&2; exit 3';
    const result = await runOneShot("sh", ["-c", script], { timeoutMs: Infinity });
    const [holder = "", long = ""] = result.stdout.split("\n");
    holders.push(Number(holder));
    expect(Number(holder)).toBeGreaterThan(0);
    expect(() => process.kill(Number(holder), 0)).not.toThrow(); // the pipes are still held
    expect(long).toBe("x".repeat(102400));
    expect(result.stderr).toBe("warned\n");
    expect(result).toMatchObject({ failed: true, exitCode: 3, timedOut: false, isCanceled: false });
  });

  it("answers a process that ended cleanly as it always did", async () => {
    const result = await runOneShot("sh", ["-c", "printf 'a\\nb\\n'"], { timeoutMs: Infinity });
    expect(result).toMatchObject({ failed: false, exitCode: 0, stdout: "a\nb\n", stderr: "" });
  });
});
