// The golden runner and library API against real tmux: a session of the exact size, expectGolden
// from a test, masks, a program that crashes mid-scenario, and the tmux cross-check.
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { isPanescopeError, PanescopeError } from "../../../src/errors.js";
import { expectGolden } from "../../../src/golden/expect.js";
import { runTape } from "../../../src/golden/run.js";
import { startPaneSession, type PaneSession } from "../../../src/golden/session.js";
import { parseTape } from "../../../src/golden/tape.js";
import { forgetGoldens } from "../../support/golden-counts.js";
import { leftoverSockets, tapeDir } from "../../support/golden-tapes.js";
import { waitFor } from "../../support/tmux-fixture.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dir(files: Record<string, string> = {}): Promise<string> {
  const made = await tapeDir(files);
  dirs.push(made);
  return made;
}

async function tape(lines: string[], options: { ci?: boolean; checkTmux?: boolean } = {}): Promise<{ result: Awaited<ReturnType<typeof runTape>>; dir: string }> {
  const where = await dir({ "t.tape": `${lines.join("\n")}\n` });
  const path = join(where, "t.tape");
  const result = await runTape(parseTape(await readFile(path, "utf8"), path), { ci: options.ci ?? false, checkTmux: options.checkTmux ?? false });
  return { result, dir: where };
}

async function withSession<T>(options: Parameters<typeof startPaneSession>[0], body: (s: PaneSession) => Promise<T>): Promise<T> {
  const session = await startPaneSession(options);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

describe("startPaneSession", () => {
  it("runs the program in a pinned environment at exactly the size asked for, from its first byte", async () => {
    await withSession({ size: { cols: 33, rows: 7 }, command: 'printf "first\\n"; echo "$TERM $LANG $LC_ALL $TZ"; test -d "$HOME" && echo home; echo "${EDITOR-unset}"; tput cols; tput lines' }, async (s) => {
      await s.waitExit(5000);
      const screen = await s.snapshot();
      expect(screen.lines.slice(0, 6)).toEqual(["first", "tmux-256color C.UTF-8 C.UTF-8 UTC", "home", "unset", "33", "7"]);
      expect(await s.exitStatus()).toEqual({ dead: true, code: 0 });
    });
  });

  it("asserts the size: a window tmux will not give its pane whole is a clear error", async () => {
    await withSession({ size: { cols: 40, rows: 10 }, command: ["sleep", "30"] }, async (s) => {
      await s.server.run(["split-window", "-d", "-t", s.paneId, "sleep", "30"]);
      const error = await s.resize({ cols: 40, rows: 10 }).catch((e: unknown) => e);
      expect(isPanescopeError(error, "golden")).toBe(true);
      expect((error as Error).message).toMatch(/^asked for a 40x10 terminal but tmux gave the window 40x10 and the pane 40x[45]:/);
    });
  });

  it("refuses a size no terminal here can have at once, before a server starts, at the start and in a resize", async () => {
    const before = leftoverSockets();
    const error = await startPaneSession({ size: { cols: 1, rows: 5 }, command: ["true"] }).catch((e: unknown) => e);
    expect(isPanescopeError(error, "bad-input")).toBe(true);
    expect((error as Error).message).toMatch(/bad size .*cols 2\.\.1000 \(xterm's least is 2\)/);
    expect(leftoverSockets()).toEqual(before);
    await withSession({ size: { cols: 30, rows: 5 }, command: ["sleep", "30"] }, async (s) => {
      await expect(s.resize({ cols: 40.5, rows: 5 })).rejects.toThrow(/bad size/);
      expect((await s.snapshot()).cols).toBe(30);
    });
  });

  it("follows a resize in tmux and in the emulator", async () => {
    await withSession({ size: { cols: 30, rows: 5 }, command: ["sh"] }, async (s) => {
      await s.resize({ cols: 50, rows: 8 });
      await s.typeText("tput cols; tput lines\n");
      await s.waitFor({ kind: "regex", regex: /^8$/m }, 5000);
      const screen = await s.snapshot();
      expect([screen.cols, screen.rows]).toEqual([50, 8]);
      expect(screen.lines).toContain("50");
    });
  });

  it("a launch that fails after its server started kills that server, removes its socket file and says why", async () => {
    // tmux starts the server, then refuses a command over its message size (16 KB on 3.2a–3.7c):
    // its client exits before the server has made its socket (tmux's `<socket>.lock` is there until then).
    const before = leftoverSockets();
    const error = await startPaneSession({ size: { cols: 20, rows: 3 }, command: ["true"], env: { BIG: "x".repeat(60_000) } }).catch((e: unknown) => e);
    expect(isPanescopeError(error, "bad-input")).toBe(true);
    expect((error as Error).message).toMatch(/^the scenario's command and env are too long for tmux \(\d+ bytes; .*\): pass large values in a file the program reads$/);
    // tmux's own words stay in the cause, naming the command list by its first command, not by the client flag before it.
    expect(((error as Error).cause as Error).message).toBe("tmux start-server failed: command too long");
    expect(leftoverSockets().filter((name) => !before.includes(name))).toEqual([]);
  });

  it("types text ending in ; and $ literally, and refuses key names tmux would type as text", async () => {
    await withSession({ size: { cols: 30, rows: 5 }, command: ["cat"] }, async (s) => {
      await s.typeText("a;b $HOME ~ ;");
      await s.sendKeys(["Enter"]);
      await s.waitFor({ kind: "regex", regex: /^a;b \$HOME ~ ;\n.+;$/m }, 5000);
      await expect(s.sendKeys(["Bogus"])).rejects.toThrow(/not a key tmux knows/);
    });
  });
});

describe("expectGolden", () => {
  it("writes a missing golden, passes the same screen, and throws a diff when it changes", async () => {
    const goldens = await dir();
    await withSession({ size: { cols: 30, rows: 4 }, command: ["sh"], env: { PS1: "> " } }, async (s) => {
      await s.typeText("echo ready\n");
      // Its output and the prompt after it: "ready" alone is in the echo of the typed line already.
      await s.waitFor({ kind: "text", text: "ready\n>" }, 5000);
      const options = { dir: goldens, suite: "shell", settleMs: 50, ci: false, update: false };
      expect((await expectGolden(s, "ready", options)).kind).toBe("written");
      expect((await expectGolden(s, "ready", options)).kind).toBe("pass");
      await s.typeText("echo changed\n");
      await s.waitFor({ kind: "text", text: "changed\n>" }, 5000);
      const error = await expectGolden(s, "ready", options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PanescopeError);
      expect((error as PanescopeError).kind).toBe("golden");
      expect((error as Error).message).toContain(`--- ${join(goldens, "shell/ready.golden")}\n+++ actual screen\n`);
      expect((error as Error).message).toContain("+│changed                       │");
      await expect(expectGolden(s, "other", { ...options, ci: true })).rejects.toThrow(/missing and CI never writes/);
    });
    forgetGoldens();
  });
});

describe("runTape", () => {
  it("masks text that changes from run to run, so the second run passes", async () => {
    const { result, dir: where } = await tape([
      "size 40x3",
      "settle 50ms",
      String.raw`mask /pid \d+/ "pid N"`,
      String.raw`mask /at \d+ns/ "at Tns"`,
      'run echo "pid $$ at $(date +%N)ns"',
      'wait "ns"',
      "snapshot masked",
    ]);
    expect(result.snapshots.map((s) => s.decision.kind)).toEqual(["written"]);
    expect(await readFile(join(where, "t/masked.golden"), "utf8")).toContain("│pid N at Tns                            │");
    const path = join(where, "t.tape");
    const again = await runTape(parseTape(await readFile(path, "utf8"), path), { ci: true });
    expect(again.snapshots.map((s) => s.decision.kind)).toEqual(["pass"]);
  });

  it("a program that crashes mid-scenario fails at the step that needed it, with its status and last screen", { timeout: 150_000 }, async () => {
    // Waits far longer than the test's own run: only the program's end can end the last one in time
    // (a 5 s wait failed once as "did not appear" on a loaded CI machine before the end was seen).
    const { result } = await tape([
      "size 40x6",
      "settle 50ms",
      "run echo ready; read _; echo crashing; kill -SEGV $$",
      'wait "ready" timeout 60s',
      'type "go\\n"',
      'wait "all done" timeout 60s',
      "snapshot never",
    ]);
    expect(result.passed).toBe(false);
    expect(result.snapshots).toEqual([]);
    expect(result.error).toMatch(/t\.tape:6 \(wait\): the program exited with status 139 \(killed by signal 11\?\) before "all done" appeared; its last screen:\n┌─+┐\n│ready +│\n│go +│\n│crashing +│\n/);
  });

  it("an unexpected exit status fails expect exit", async () => {
    const { result } = await tape(["size 20x3", "settle 50ms", "run exit 3", "expect exit 0"]);
    expect(result.error).toMatch(/t\.tape:4 \(expect-exit\): expected exit status 0, the program exited with 3/);
  });

  it("--check-tmux reports where tmux renders differently (a combining mark at column 0: tmux drops it, xterm gives it a column)", async () => {
    // A known difference on every version (docs/widths.md): U+0301 with no character before it.
    const logged: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (logged.push(String(chunk)), true));
    let result: Awaited<ReturnType<typeof runTape>>;
    try {
      ({ result } = await tape(["size 20x3", "settle 50ms", "run printf '\\314\\201|ok\\n'; sleep 30", 'wait "ok"', "snapshot mark"], { checkTmux: true }));
    } finally {
      stderr.mockRestore();
    }
    const [shot] = result.snapshots;
    expect(result.error).toBeUndefined();
    expect(shot?.decision.kind).toBe("written");
    // Never lost unflagged. The replica audit takes tmux's screen once the pane has been quiet for
    // 150 ms (watch/audit/timer.ts), and says so: a slow machine's snapshot can come after that, and then
    // the audit, not --check-tmux, is what reports the row.
    if (shot?.disagreements?.length === 0) {
      expect(logged.join(""), "neither --check-tmux nor the replica audit reported row 0").toMatch(/healed %\d+: rows 0\b/);
    } else {
      expect(shot?.disagreements).toEqual(['row 0: tmux "|ok" | panescope "\u0301|ok"']);
      expect(result.passed).toBe(false);
    }
  });

  it("names its session in a note it prints (a screen healed from tmux's), among the many a run has at once", async () => {
    const logged: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (logged.push(String(chunk)), true));
    try {
      // The combining mark at column 0 of the test above: the replica audit heals row 0 once the pane rests.
      await withSession({ size: { cols: 20, rows: 3 }, command: "printf '\\314\\201|ok\\n'; sleep 30", label: "golden/t.tape" }, async (s) => {
        await s.waitFor({ kind: "text", text: "ok" }, 20_000);
        await waitFor(() => logged.join("").includes("healed"), undefined, "the replica audit's heal");
      });
    } finally {
      stderr.mockRestore();
    }
    expect(logged.join("")).toMatch(/^panescope: healed %\d+: rows 0\b.*\(golden session golden\/t\.tape\)\n/m);
  });

  it("leaves no tmux server socket behind", () => {
    expect(leftoverSockets()).toEqual([]);
  });
});
