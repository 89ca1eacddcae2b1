// A shell command against a tmux server that is stopped (SIGSTOP): it fails once one bounded tmux
// command has gone unanswered, saying the server may be stopped, instead of waiting out a bound for
// each command of the call (22 s for a `send` to a watched pane: the own-pane check's timeout was
// taken for "no server", then send-keys timed out; 30 s to one not yet watched: the watch's start
// too). The daemon runs tmux through a logging wrapper (--tmux): the tmux commands started while
// the server is stopped are counted, not the milliseconds the command took.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { StoppedServers } from "../../support/stopped-tmux.js";
import { serverPerTest, type ShellPlace } from "../../support/shell-daemon.js";

const setUp = serverPerTest();
/** Registered after serverPerTest: runs before its clean-up, so tmux goes on before it is killed. */
const stopped = new StoppedServers();
afterEach(() => stopped.resumeAll());

const scratch = mkdtempSync(join(tmpdir(), "panescope-stopped-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A tmux that logs each start (a one-shot's commands, which come on its stdin, or its argv), then
 * execs the real one: the same process, so the daemon's SIGKILL on a timeout reaches tmux itself.
 */
function loggingTmux(name: string): { binary: string; oneShots: () => string[] } {
  const binary = join(scratch, `${name}.sh`);
  const log = join(scratch, `${name}.log`);
  writeFileSync(
    binary,
    `#!/bin/sh
case " $* " in
*" source-file - "*)
  input=$(cat)
  printf 'one-shot: %s\\n' "$input" >> '${log}'
  exec tmux "$@" <<EOF
$input
EOF
  ;;
*) printf 'argv: %s\\n' "$*" >> '${log}'; exec tmux "$@" ;;
esac
`,
  );
  chmodSync(binary, 0o755);
  writeFileSync(log, "");
  return { binary, oneShots: () => readFileSync(log, "utf8").split("\n").filter((line) => line.startsWith("one-shot: ")) };
}

/** The command's answer: a timeout that says the server may be stopped, and how to check. */
function expectNotAnswering(failed: { exitCode: number; stderr: string }): void {
  expect(failed.exitCode, failed.stderr).toBe(4);
  expect(failed.stderr).toMatch(/^panescope: error \(timeout\): .*within 10000 ms.*the server may be stopped \(SIGSTOP, a debugger\) or overloaded/);
}

/** After SIGCONT: the daemon answers again (nothing of the stall sticks), and the refused keys were never typed. */
async function expectResumed(place: ShellPlace, tmuxBinary: string): Promise<void> {
  const after = await place.run(["send", "%0", "--tmux", tmuxBinary, "--text", "echo resumed-$((6*7))", "--key", "Enter", "--wait-for", "^resumed-42$"]);
  expect(after.exitCode, after.stderr).toBe(0);
  expect(after.stdout).not.toContain("typed-while-stopped");
}

describe("a command against a stopped tmux server", () => {
  it("send to a watched pane fails after one tmux command went unanswered, saying the server may be stopped; nothing is typed", { timeout: 90_000 }, async () => {
    const { tmux, place } = await setUp();
    const tmuxBinary = loggingTmux("watched");
    expect((await place.run(["read", "%0", "--tmux", tmuxBinary.binary])).exitCode).toBe(0); // the daemon watches %0
    const before = tmuxBinary.oneShots().length;
    const pid = await stopped.stop(tmux);
    const failed = await place.run(["send", "%0", "--tmux", tmuxBinary.binary, "--text", "typed-while-stopped"]);
    expectNotAnswering(failed);
    // One bounded wait: the first command timed out, the ones after it (send-keys among them) were never started.
    expect(tmuxBinary.oneShots().slice(before)).toHaveLength(1);
    expect(tmuxBinary.oneShots().slice(before).join("\n")).not.toContain("send-keys");
    stopped.resume(pid);
    await expectResumed(place, tmuxBinary.binary);
  });

  it("send to a pane not yet watched (its watch would start first) fails after one tmux command went unanswered too", { timeout: 90_000 }, async () => {
    const { tmux, place } = await setUp();
    const tmuxBinary = loggingTmux("unwatched");
    expect((await place.run(["list", "--tmux", tmuxBinary.binary])).exitCode).toBe(0); // a daemon, watching nothing
    const before = tmuxBinary.oneShots().length;
    const pid = await stopped.stop(tmux);
    const failed = await place.run(["send", "%0", "--tmux", tmuxBinary.binary, "--text", "typed-while-stopped"]);
    expectNotAnswering(failed);
    expect(tmuxBinary.oneShots().slice(before)).toHaveLength(1);
    stopped.resume(pid);
    await expectResumed(place, tmuxBinary.binary);
  });
});
