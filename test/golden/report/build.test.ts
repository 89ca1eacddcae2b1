// From a run's results to report items: a failing snapshot with both screens and its tape line, a
// failed step with its output, and the tape's recording on its first item only.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatGolden } from "../../../src/golden/format.js";
import { tapeItems } from "../../../src/golden/report/build.js";
import type { TapeResult } from "../../../src/golden/run.js";
import { decide } from "../../../src/golden/store.js";
import type { ScreenSnapshot } from "../../../src/observe/emulator/snapshot.js";

const dir = await mkdtemp(join(tmpdir(), "panescope-report-build-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

const screen = (line: string): ScreenSnapshot => ({ cols: 6, rows: 1, cursorX: 0, cursorY: 0, cursorVisible: true, alternate: false, lines: [line], styles: [] });
const cast = `${JSON.stringify({ version: 2, width: 6, height: 1 })}\n[0.1,"o","two"]\n`;

describe("tapeItems", () => {
  it("makes an item per failing snapshot and per failed step, with the tape's lines, and the recording once", async () => {
    const tape = join(dir, "menu.tape");
    await writeFile(tape, 'size 6x1\nrun ["sh"]\nsnapshot first\nsnapshot second\nwait "never"\n');
    const expected = formatGolden(screen("one"));
    const actual = formatGolden(screen("two"));
    const failing = { screen: screen("two"), expected, actual, decision: decide({ expected, actual, update: false, ci: false }), raw: "two\n" };
    const result: TapeResult = {
      path: tape,
      snapshots: [
        { name: "first", where: `${tape}:3`, path: "g/first.golden", ...failing },
        { name: "passed", where: `${tape}:4`, path: "g/passed.golden", screen: screen("x"), actual, decision: { kind: "pass" } },
      ],
      error: `${tape}:5 (wait): "never" did not appear`,
      failedAt: { line: 5, raw: "more output" },
      cast,
      passed: false,
      ms: 10,
    };
    const items = await tapeItems(result, "menu.cast");
    expect(items.map((i) => [i.snapshot, i.statement, i.raw])).toEqual([
      ["first", '1  size 6x1\n2  run ["sh"]\n3  snapshot first', "two\n"],
      [undefined, '5  wait "never"', "more output"],
    ]);
    expect(items[0]?.expected?.lines).toEqual(["one"]);
    expect(items[0]?.actual?.lines).toEqual(["two"]);
    expect(items[0]?.recording?.file).toBe("menu.cast");
    expect(items[0]?.recording?.frames.at(-1)?.html).toBe("two   ");
    expect(items[1]?.recording).toBeUndefined();
  });
});
