// The shell words of what QA found (the built CLI, through a daemon of the test's own, on a private
// 60x8 sh pane): `read --max-lines 2` says what it cut, by the shell's own flags (never MCP's
// maxLines), `read` after output that left the screen as it was says what came, and `send --key
// Return` asks "did you mean Enter".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonLogsOnFailure, shellPlace, type ShellPlace } from "../../support/shell-daemon.js";
import { startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

let tmux: TestServer;
let place: ShellPlace;

beforeAll(async () => {
  tmux = await startServer({ command: "sh", cols: 60, rows: 8, env: { PS1: "# " } });
  place = shellPlace(tmux.name);
});

afterAll(async () => {
  await place.clean();
  await tmux.kill();
});

daemonLogsOnFailure(() => place);

/** The reader's cursor now (a read with --json moves it). */
async function cursorNow(): Promise<string> {
  const run = await place.run(["read", "%0", "--as", "qa", "--json"]);
  expect(run.exitCode, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { cursor: string }).cursor;
}

/** `seq 5` typed with tmux; resolves once everything since `cursor` holds its output and the prompt. */
async function seq5(cursor: string): Promise<void> {
  await tmux.run(["send-keys", "-t", "%0", "-l", "seq 5"]);
  await tmux.run(["send-keys", "-t", "%0", "Enter"]);
  await waitFor(async () => {
    const run = await place.run(["read", "%0", "--cursor", cursor, "--json"]);
    return /5\r?\n# $/.test((JSON.parse(run.stdout) as { raw: string }).raw);
  }, 20_000, "seq 5's output and the prompt");
}

describe("panescope read after `seq 5`, twice", () => {
  it("--max-lines 2 shows the last two lines and says how many it cut, as --json counts them", async () => {
    const start = await cursorNow();
    await seq5(start);
    const once = await cursorNow();
    await seq5(once);
    const json = await place.run(["read", "%0", "--cursor", once, "--max-lines", "2", "--json"]);
    expect((JSON.parse(json.stdout) as { truncated: { rows: number } }).truncated.rows).toBe(5);
    const text = await place.run(["read", "%0", "--cursor", once, "--max-lines", "2"]);
    expect(text.stdout.trimEnd().split("\n").slice(1)).toEqual(["cut 5 rows (--max-lines, or an answer's 256 KiB cap)", "6|5", "|#"]);
    // Once more: the screen reads exactly as before, and the read still shows what came.
    const twice = await cursorNow();
    await seq5(twice);
    const read = await place.run(["read", "%0", "--as", "qa"]);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(read.stdout).not.toContain("no change");
    expect(read.stdout.trimEnd().split("\n").slice(1)).toEqual(["1|# seq 5", "|1", "|2", "|3", "|4", "|5", "|#"]);
  });
});

describe("what an answer left out, in the shell's words", () => {
  it("--view raw after output with no text says --view rows shows the rows it changed", async () => {
    // No echo: after "ready" the pane prints only the escape that clears its screen.
    const opened = await place.run(["open", "--", "sh", "-c", 'stty -echo; printf ready; read x; printf "\\033[2J"']);
    expect(opened.exitCode, opened.stderr).toBe(0);
    const pane = opened.stdout.trim();
    expect((await place.run(["wait", pane, "--as", "raw", "--for", "ready"])).exitCode).toBe(0);
    expect((await place.run(["send", pane, "--as", "raw", "--key", "Enter"])).exitCode).toBe(0);
    const closed = await place.run(["wait", pane, "--as", "raw", "--closed", "--view", "raw"]);
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(closed.stdout.trimEnd().split("\n").slice(1)).toEqual(["4 B of output, no text: 1 rows changed (--view rows shows them)", "closed: exit status 0"]);
  });

  it("output beyond an answer's byte cap, which the shell has no flag for, is said as that cap", async () => {
    // The reader that opens the pane reads it from its first byte.
    const flood = { PANESCOPE_READER: "flood" };
    const opened = await place.run(["open", "--", "seq", "1", "100000"], flood);
    expect(opened.exitCode, opened.stderr).toBe(0);
    const closed = await place.run(["wait", opened.stdout.trim(), "--closed"], flood);
    expect(closed.exitCode, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/ \d+ earlier chars of output not looked at \(an answer's 256 KiB cap\)\nclosed: exit status 0$/);
    expect(closed.stdout).not.toMatch(/maxBytes|maxLines/);
  });
});

describe("panescope send --key with a name tmux spells otherwise", () => {
  it.each([
    ["Return", "Enter"],
    ["Ctrl-C", "C-c"],
    ["ESC", "Escape"],
  ])("refuses %j (exit 2) and asks: did you mean %j", async (name, meant) => {
    const run = await place.run(["send", "%0", "--key", name]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`(did you mean "${meant}"?)`);
  });
});
