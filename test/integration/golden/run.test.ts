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
});
