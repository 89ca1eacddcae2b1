// runTape against real tmux, at moments a test picks: a program that is already gone when a step
// begins (a quick `run printf`, common in tapes) still has its final screen to wait for.
import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { runTape, startPaneSession, parseTape } from "../../../src/golden/index.js";
import { tapeDir } from "../../support/golden-tapes.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("runTape", () => {
  it("a wait for text the program printed before exiting passes, even when the exit was seen first", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    const tape = parseTape(['size 20x3', 'run printf "done\\n"', 'wait "done"', "snapshot final", ""].join("\n"), `${dir}/quick.tape`);
    // Hand the session over only once its program has exited: the race tmux usually wins.
    const exited: typeof startPaneSession = async (options) => {
      const session = await startPaneSession(options);
      await session.waitExit(5000);
      return session;
    };
    const result = await runTape(tape, { start: exited, ci: false });
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
    expect(result.snapshots.map((s) => s.decision.kind)).toEqual(["written"]);
  });

  it("a step that needs the program still fails at once when it is gone", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    const tape = parseTape(['size 20x3', 'run printf "done\\n"', 'type "more\\n"', ""].join("\n"), `${dir}/typing.tape`);
    const result = await runTape(tape, {
      start: async (options) => {
        const session = await startPaneSession(options);
        await session.waitExit(5000);
        return session;
      },
    });
    expect(result.passed).toBe(false);
    expect(result.error).toMatch(/typing\.tape:3 \(type\): the program exited with status 0 before this step/);
  });

  it("a wait for the prompt's trailing space matches the cursor's row as displayed, and the snapshot after it settles", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    // PS1='$ ' is pinned: the cursor sits after the space, so the row shows "$ " as MCP wait_for sees it.
    const tape = parseTape(["size 20x3", "settle 50ms", 'run ["sh"]', 'wait "$ "', "wait /^\\$ $/m timeout 1s", "snapshot prompt", ""].join("\n"), `${dir}/prompt.tape`);
    const result = await runTape(tape, { ci: false });
    expect(result.error).toBeUndefined();
    expect(result.passed).toBe(true);
  });

  it("the settle rule checks the text of a wait right before the snapshot, not of one that keys came after", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    // `clear` rightly takes "AAA" off the screen: the snapshot after it must not blame the wait.
    const cleared = parseTape(["size 20x3", "settle 50ms", 'run ["sh"]', 'wait "$ "', 'type "echo AAA\\n"', 'wait "AAA"', 'type "clear\\n"', "quiet 200ms", "snapshot cleared", ""].join("\n"), `${dir}/cleared.tape`);
    const passed = await runTape(cleared, { ci: false });
    expect(passed.error).toBeUndefined();
    expect(passed.passed).toBe(true);
    // A flash the wait saw, gone while the snapshot settled, still fails.
    const flash = parseTape(["size 20x3", "settle 600ms", "run printf flash; sleep 0.3; printf '\\rgone '; exec sleep 30", 'wait "flash"', "snapshot flash", ""].join("\n"), `${dir}/flash.tape`);
    const failed = await runTape(flash, { ci: false });
    expect(failed.error).toMatch(/flash\.tape:5 \(snapshot\): "flash" was visible but is gone after settling for 600 ms/);
  });

  it("a wait that times out says how rows are matched: trailing blanks only on the cursor's row", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    const tape = parseTape(["size 20x3", 'run printf "a  \\nb"; exec sleep 30', 'wait "a  " timeout 300ms', ""].join("\n"), `${dir}/blanks.tape`);
    const result = await runTape(tape, { ci: false });
    expect(result.error).toMatch(/blanks\.tape:3 \(wait\): "a {2}" did not appear within 300 ms \(rows are matched without trailing blanks, except the cursor's row/);
  });

  it("a settle that never comes names what helps (a shorter settle, a later snapshot), not masks", async () => {
    const dir = await tapeDir({});
    dirs.push(dir);
    const spinner = "run while :; do printf '\\r|'; sleep 0.02; printf '\\r-'; sleep 0.02; done";
    const tape = parseTape(["size 20x3", "settle 500ms", "timeout 1s", spinner, 'wait "|"', "snapshot spinning", ""].join("\n"), `${dir}/spinner.tape`);
    const result = await runTape(tape, { ci: false });
    expect(result.error).toMatch(/spinner\.tape:6 \(snapshot\): the program never went 500 ms without output within 1000 ms/);
    expect(result.error).toContain("settle (or quiet) for less than the time between its redraws");
    expect(result.error).not.toContain("mask it");
  });
});
