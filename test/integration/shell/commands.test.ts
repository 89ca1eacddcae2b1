// The shell commands on a real private tmux server, through the daemon they start: a reader sees
// each line once, --json is capture_since's delta, send types in the order given, and the exit
// statuses a script branches on (0 done, 1 timed out, 2 usage, 3 closed).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellsOfSvg } from "../../support/svg-cells.js";
import { startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { daemonLogsOnFailure, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";

let tmux: TestServer;
let place: ShellPlace;

beforeAll(async () => {
  tmux = await startServer({ command: "sh", cols: 60, rows: 12 });
  place = shellPlace(tmux.name);
});

afterAll(async () => {
  await place.clean();
  await tmux.kill();
});

daemonLogsOnFailure(() => place);

/** Types a line into %0 with tmux itself and waits (as another reader) until `shown` is on the screen. */
async function print(line: string, shown: string): Promise<void> {
  await tmux.run(["send-keys", "-t", "%0", "-l", line]);
  await tmux.run(["send-keys", "-t", "%0", "Enter"]);
  const waited = await place.run(["wait", "%0", "--as", "waiter", "--for", shown, "--timeout", "20000"]);
  expect(waited.exitCode, waited.stderr).toBe(0);
}

describe("panescope read", () => {
  it("twice on a pane that printed between the calls shows only the new lines, and --json is capture_since's delta", async () => {
    await print("echo zero-line", "^zero-line$");
    const first = await place.run(["read", "%0", "--as", "script", "--json"]);
    expect(first.exitCode, first.stderr).toBe(0);
    const before = JSON.parse(first.stdout) as { cursor: string; rows: { text: string }[] };
    expect(before.rows.map((r) => r.text)).toContain("zero-line");

    await print("echo alpha; echo beta", "^beta$");
    const second = await place.run(["read", "%0", "--as", "script", "--json"]);
    expect(second.exitCode, second.stderr).toBe(0);
    const delta = (run: { stdout: string }) => {
      const { rows, raw, missed, closed, screen } = JSON.parse(run.stdout) as Record<string, unknown>;
      return { rows, raw, missed, closed, screen };
    };
    const texts = (delta(second).rows as { text: string }[]).map((r) => r.text);
    expect(texts).toEqual(expect.arrayContaining(["alpha", "beta"]));
    expect(texts).not.toContain("zero-line");

    // capture_since {cursor} from the first answer's cursor answers the same delta.
    const since = await place.run(["read", "%0", "--cursor", before.cursor, "--json"]);
    expect(delta(since)).toEqual(delta(second));
    // And the text a model reads shows only the new lines.
    const text = await place.run(["read", "%0", "--cursor", before.cursor]);
    expect(text.stdout).toMatch(/^cursor=\S+ %0/);
    expect(text.stdout).toContain("|alpha");
    expect(text.stdout).not.toContain("zero-line");

    const nothing = await place.run(["read", "%0", "--as", "script"]);
    expect(nothing.stdout).toContain("no change");
    // A cursor that is not one is the caller's to fix: a usage error.
    const garbage = await place.run(["read", "%0", "--cursor", "garbage"]);
    expect(garbage.exitCode).toBe(2);
    expect(garbage.stderr).toContain("error (cursor-malformed)");
  });

  it("prints usage errors with exit status 2 and each command's --help", async () => {
    expect((await place.run(["read"])).exitCode).toBe(2);
    const noCondition = await place.run(["wait", "%0"]);
    expect(noCondition.exitCode).toBe(2);
    expect(noCondition.stderr).toContain("give one condition");
    // A number above tmux's largest pane id is out of range (2), one below it a pane there is not (3).
    const outOfRange = await place.run(["read", "%4294967296"]);
    // The advice names the command's server (-L): a bare `panescope list` would list the default one.
    expect([outOfRange.exitCode, outOfRange.stderr]).toEqual([2, `panescope: error (bad-input): invalid arguments for panescope read: pane id %4294967296 is out of range: tmux numbers panes from %0 to %4294967295 (panescope list -L ${tmux.name} shows the panes there are)`]);
    const absent = await place.run(["read", "%2147483647"]);
    expect([absent.exitCode, absent.stderr]).toEqual([3, `panescope: error (unknown-pane): no pane %2147483647 on this tmux server: panescope list -L ${tmux.name} shows the panes there are`]);
    for (const command of ["read", "wait", "send", "list", "open", "close"]) {
      const help = await place.run([command, "--help"]);
      expect(help.stdout, command).toContain(`usage: panescope ${command}`);
    }
  });
});

describe("panescope wait and send", () => {
  it("send types text and keys in the order given and waits for the pattern", async () => {
    // Typed ahead, the second line may land after a prompt: the pattern allows one ("# two-done").
    const sent = await place.run(["send", "%0", "--as", "typist", "--text", "echo one-$(echo done)", "--key", "Enter", "--text", "echo two-$(echo done)", "--key", "Enter", "--wait-for", "two-done$", "--timeout", "20000"]);
    expect(sent.exitCode, sent.stdout + sent.stderr).toBe(0);
    expect(sent.stdout.indexOf("one-done")).toBeGreaterThan(-1);
    // The delta comes after the match's rows: its last lines are in the order they were printed.
    expect(sent.stdout.lastIndexOf("one-done")).toBeLessThan(sent.stdout.lastIndexOf("two-done"));
  });

  it("an interrupted call cancels its wait in the daemon and exits 130 (SIGINT) or 143 (SIGTERM)", async () => {
    const waiting = place.start(["send", "%0", "--as", "interrupted", "--text", "echo inter-$((3*3))", "--wait-for", "^never-printed$", "--timeout", "600000"]);
    await waitFor(async () => (await tmux.run(["capture-pane", "-p", "-t", "%0"])).some((line) => line.includes("inter-$((3*3))")), 20_000, "the typed marker");
    waiting.kill("SIGINT");
    expect((await waiting).exitCode).toBe(130);
    // The daemon is still there and answers the next call.
    expect((await place.run(["read", "%0", "--as", "interrupted"])).exitCode).toBe(0);
    // SIGTERM: 143, as a shell reports a command it ended.
    const terminated = place.start(["send", "%0", "--as", "interrupted", "--text", "echo term-$((4*4))", "--wait-for", "^never-printed$", "--timeout", "600000"]);
    await waitFor(async () => (await tmux.run(["capture-pane", "-p", "-t", "%0"])).some((line) => line.includes("term-$((4*4))")), 20_000, "the typed marker");
    terminated.kill("SIGTERM");
    expect((await terminated).exitCode).toBe(143);
  });

  it("keys one reader typed keep that reader's wait from taking the old screen, and no other reader's", async () => {
    const opened = await place.run(["open", "--", "sh", "-c", "echo READY; stty -echo; exec cat"]);
    expect(opened.exitCode, opened.stderr).toBe(0);
    const paneId = opened.stdout;
    // cat waits for input with echo off: a key changes nothing on the screen.
    expect((await place.run(["wait", paneId, "--as", "b", "--ready", "--timeout", "20000"])).exitCode).toBe(0);
    expect((await place.run(["send", paneId, "--as", "typist", "--text", "a"])).exitCode).toBe(0);
    const other = await place.run(["wait", paneId, "--as", "d", "--for", "^READY$", "--timeout", "20000"]);
    expect(other.exitCode, other.stdout).toBe(0);
    // The typist's own wait: READY was there before its key, and nothing has changed since.
    const own = await place.run(["wait", paneId, "--as", "typist", "--for", "^READY$", "--timeout", "300"]);
    expect(own.exitCode, own.stdout).toBe(1);
    expect(own.stdout).toContain(`the screen was not tested: ${paneId} has not changed since the keys sent to it from here`);
    expect((await place.run(["close", paneId])).exitCode).toBe(0);
  });

  it("wait exits 1 when it times out", async () => {
    const waited = await place.run(["wait", "%0", "--as", "timer", "--for", "^never-printed$", "--timeout", "200"]);
    expect(waited.exitCode).toBe(1);
    expect(waited.stdout).toMatch(/timeout/);
  });

  it("open, list, wait --closed, read of a closed pane (3) and close", async () => {
    const opened = await place.run(["open", "--json", "--", "sh", "-c", "echo bye now; exit 3"]);
    expect(opened.exitCode, opened.stderr).toBe(0);
    const { paneId } = JSON.parse(opened.stdout) as { paneId: string };
    expect((await place.run(["list"])).stdout).toContain(paneId);
    const closed = await place.run(["wait", paneId, "--closed", "--timeout", "20000"]);
    expect(closed.exitCode, closed.stdout + closed.stderr).toBe(0);
    // The reader that opened the pane starts at its first byte: what it printed before the wait too.
    expect(closed.stdout).toContain("bye now");
    const read = await place.run(["read", paneId, "--as", "late"]);
    expect(read.stdout).toContain("bye now");
    expect(read.exitCode).toBe(3);
    // Without --json, stdout is the id alone, as `id=$(panescope open -- …)` wants it; stderr says
    // the rest. (Opened while the first one's session lives: a new session would bring a client.)
    const plain = await place.run(["open", "--", "sh", "-c", "exit 4"]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^%\d+$/);
    expect(plain.stdout).not.toBe(paneId);
    expect(plain.stderr).toContain(`panescope: opened ${plain.stdout} (pid `);
    expect(plain.stderr).toMatch(/\npanescope: cursor \(from before its first byte\): [\w-]+$/);
    expect((await place.run(["close", plain.stdout])).exitCode).toBe(0);
    const killed = await place.run(["close", paneId]);
    expect(killed.exitCode, killed.stderr).toBe(0);
    const after = await place.run(["read", paneId, "--as", "late"]);
    expect(after.exitCode).toBe(3);
    // A pane that never was: exit 3 too, and what to run next in the shell's words (not the MCP tool's).
    const never = await place.run(["read", "%99999", "--as", "late"]);
    expect(never.exitCode).toBe(3);
    expect(never.stderr).toContain(`no pane %99999 on this tmux server: panescope list -L ${tmux.name} shows the panes there are`);
    // A command that cannot start: exit 4, the shell's message and advice about the command, not about panes.
    const missing = await place.run(["open", "--session", tmux.session, "--", "no-such-command-panescope"]);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/^panescope: error \(command-failed\): the command could not start \(exit status 127: .*no-such-command-panescope.*\); the pane was closed\. Check the command name, its arguments and PATH; what it printed is quoted$/);
    // A pane panescope did not open is refused with the flag that kills it anyway (not MCP's `force: true`).
    const mine = await place.run(["close", "%0"]);
    expect(mine.exitCode).toBe(4);
    expect(mine.stderr).toContain("%0 was not opened by panescope: pass --force to kill it anyway");
  });

  it("open starts its pane in the directory the command runs in (a relative --cwd from there), not in the daemon's /", async () => {
    for (const [cwd, expected] of [[undefined, process.cwd()], ["test", join(process.cwd(), "test")]] as const) {
      const opened = await place.run(["open", ...(cwd === undefined ? [] : ["--cwd", cwd]), "--", "sh", "-c", "echo in=$(pwd); exec sleep 60"]);
      expect(opened.exitCode, opened.stderr).toBe(0);
      const shown = await place.run(["wait", opened.stdout, "--as", "where", "--for", "^in=", "--timeout", "20000"]);
      // Closed first: a pane left open keeps its session's control client (the test after counts them).
      expect((await place.run(["close", opened.stdout])).exitCode).toBe(0);
      expect(/\|in=(.*)$/m.exec(shown.stdout)?.[1]).toBe(expected);
    }
  });

  it("a command that ended at once reads as closed at once, and takes no keys (3)", async () => {
    const opened = await place.run(["open", "--json", "--", "sh", "-c", "echo fast"]);
    expect(opened.exitCode, opened.stderr).toBe(0);
    const { paneId, exitStatus } = JSON.parse(opened.stdout) as { paneId: string; exitStatus?: number };
    // open watches 400 ms for a command that ends at once; where `echo` took longer (a very busy
    // machine), the end is first asked of tmux, as a reader without open's word has it.
    if (exitStatus === undefined) expect((await place.run(["wait", paneId, "--closed", "--timeout", "20000"])).exitCode).toBe(0);
    const read = await place.run(["read", paneId, "--as", "quick"]);
    expect(read.stdout).toContain("fast");
    expect(read.stdout).toContain("closed: exit status 0");
    expect(read.exitCode).toBe(3);
    const sent = await place.run(["send", paneId, "--as", "quick", "--text", "hi"]);
    expect(sent.exitCode).toBe(3);
    expect(sent.stderr).toContain(`${paneId}'s program has ended (exit status 0): nothing can be typed into it`);
    expect(sent.stderr).toContain("panescope open starts a new program");
    expect((await place.run(["close", paneId])).exitCode).toBe(0);
  });

  it("every call went through one daemon, which holds one control client", async () => {
    expect(place.daemons()).toHaveLength(1);
    // The client of a session whose last pane a test just closed ends on its own, a moment later.
    const controlClients = async (): Promise<number> => (await tmux.run(["list-clients", "-F", "#{client_control_mode}"])).filter((c) => c === "1").length;
    await waitFor(async () => (await controlClients()) <= 1, 20_000, "the closed session's client to end");
    expect(await controlClients()).toBe(1);
  });
});

describe("panescope shot", () => {
  it("writes the pane's screen as an SVG whose cells read back as tmux's screen, and refuses a file that is neither .svg nor .png", async () => {
    // The interrupted test left its typed line unsent: the terminal's kill character (C-u) drops it.
    await tmux.run(["send-keys", "-t", "%0", "C-u"]);
    await print("printf 'shot \\033[1;31mred\\033[0m done\\n'", "^shot red done$");
    const dir = mkdtempSync(join(tmpdir(), "panescope-shot-"));
    const file = join(dir, "pane.svg");
    const shot = await place.run(["shot", "%0", "-o", file]);
    expect(shot.exitCode, shot.stderr).toBe(0);
    expect(shot.stdout).toMatch(/pane\.svg \(\d+ bytes\)/);
    const cells = cellsOfSvg(readFileSync(file, "utf8"));
    const shown = cells.map((row) => row.map((cell) => cell.text).join("").trimEnd());
    const tmuxRows = (await tmux.run(["capture-pane", "-p", "-t", "%0"])).map((line) => line.trimEnd());
    expect(shown.slice(0, tmuxRows.length)).toEqual(tmuxRows);
    // The red word is drawn red and bold, the words around it in the default colour.
    const row = cells[shown.findIndex((line) => line === "shot red done")] ?? [];
    expect(row[5]).toMatchObject({ text: "r", bold: true });
    expect(row[5]?.fg).not.toBe(row[0]?.fg);

    const wrong = await place.run(["shot", "%0", "-o", join(dir, "pane.jpg")]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("-o names an .svg or .png file");
    // A file that surely cannot be written is refused before the screen is taken, saying what to do.
    const nowhere = join(dir, "no-such-folder", "pane.svg");
    const lost = await place.run(["shot", "%0", "-o", nowhere]);
    expect([lost.exitCode, lost.stderr.trim()]).toEqual([2, `panescope: cannot write the picture to ${nowhere}: the folder ${join(dir, "no-such-folder")} does not exist: create it, or name a file in a folder that does`]);
    const folder = await place.run(["shot", "%0", "-o", `${dir}/x.svg/`]);
    expect(folder.exitCode).toBe(2);
    rmSync(dir, { recursive: true, force: true });
  });
});
