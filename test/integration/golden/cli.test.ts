// `panescope golden` end to end against real tmux: the project's own example tapes, approvals
// (mismatch diff, --update, CI never writes), stale goldens, exit codes and the summary line.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/golden/main.js";
import { parseCommand } from "../../../src/options.js";
import { captureIo, leftoverSockets, tapeDir, type CapturedIo } from "../../support/golden-tapes.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** `panescope golden ARGS` as the CLI runs it: parsed with io's environment, then run. */
async function runGolden(args: string[], io: CapturedIo): Promise<number> {
  const command = parseCommand(["golden", ...args], io.env);
  if (command.kind !== "golden") throw new Error(`not a golden command: ${command.kind}`);
  return main(command.options, io);
}

async function hello(extra: Record<string, string> = {}): Promise<string> {
  const dir = await tapeDir({
    "hello.tape": ["size 24x4", "settle 50ms", 'run printf "hello\\nworld\\n"', 'wait "world"', "snapshot greeting", ""].join("\n"),
    ...extra,
  });
  dirs.push(dir);
  return dir;
}

describe("panescope golden", () => {
  it("the example tapes pass against their committed goldens, and tmux's own rendering agrees", async () => {
    const io = captureIo({ CI: "true" });
    const code = await runGolden(["--check-tmux", join(ROOT, "golden/tapes")], io);
    expect(io.text()).not.toContain("FAIL");
    expect(io.lines.filter((line) => line.startsWith("PASS"))).toHaveLength(4);
    expect(io.lines.at(-1)).toBe("4 passed, 0 failed");
    expect(code).toBe(0);
  });

  it("a missing golden is written locally, then the same screen passes", async () => {
    const dir = await hello();
    const first = captureIo();
    expect(await runGolden([dir], first)).toBe(0);
    expect(first.text()).toMatch(/wrote .*hello\/greeting\.golden \(new golden\)/);
    const golden = await readFile(join(dir, "hello/greeting.golden"), "utf8");
    expect(golden).toContain("│hello                   │\n│world                   │\n");
    const again = captureIo();
    expect(await runGolden([dir], again)).toBe(0);
    expect(again.lines).toEqual([expect.stringMatching(/^PASS .*hello\.tape \(1 snapshot, /), "1 passed, 0 failed"]);
  });

  it("a missing golden fails under CI=true and nothing is written", async () => {
    const dir = await hello();
    const io = captureIo({ CI: "true" });
    expect(await runGolden(["--update", dir], io)).toBe(1);
    expect(io.text()).toContain("is missing and CI never writes goldens");
    expect(io.lines.at(-1)).toBe("0 passed, 1 failed");
    expect(existsSync(join(dir, "hello"))).toBe(false);
  });

  it("a changed screen fails with a unified diff, and --update rewrites the golden", async () => {
    const dir = await hello();
    expect(await runGolden([dir], captureIo())).toBe(0);
    const path = join(dir, "hello/greeting.golden");
    const good = await readFile(path, "utf8");
    await writeFile(path, good.replace("│world ", "│World "));
    const io = captureIo();
    expect(await runGolden([dir], io)).toBe(1);
    const out = io.text();
    expect(out).toMatch(/^FAIL .*hello\.tape/m);
    expect(out).toContain("hello.tape:5 snapshot greeting:");
    expect(out).toContain("re-run with --update");
    expect(out).toContain("-│World                   │\n  +│world                   │");
    expect(io.lines.at(-1)).toBe("0 passed, 1 failed");
    expect(await readFile(path, "utf8")).not.toBe(good); // a failure writes nothing

    const update = captureIo();
    expect(await runGolden(["--update", dir], update)).toBe(0);
    expect(update.text()).toContain("(updated)");
    expect(await readFile(path, "utf8")).toBe(good);
    const env = captureIo({ PANESCOPE_UPDATE: "1" });
    await writeFile(path, good.replace("│world ", "│World "));
    expect(await runGolden([dir], env)).toBe(0);
    expect(await readFile(path, "utf8")).toBe(good);
  });

  it("--list-stale names goldens no snapshot writes and goldens of tapes that are gone, running nothing", async () => {
    const dir = await hello({ "hello/old-name.golden": "x\n", "removed/first.golden": "x\n", "hello/greeting.golden": "x\n" });
    const io = captureIo();
    expect(await runGolden(["--list-stale", dir], io)).toBe(0);
    expect(io.lines).toEqual([join(dir, "hello/old-name.golden"), join(dir, "removed/first.golden"), "2 stale golden files"]);
  });

  it("usage mistakes exit 2 with a message", async () => {
    const missing = captureIo();
    expect(await runGolden(["/nonexistent/tapes"], missing)).toBe(2);
    expect(missing.errors.join("\n")).toContain("no such file or folder");
    const empty = await tapeDir({ "notes.txt": "no tapes here\n" });
    dirs.push(empty);
    const none = captureIo();
    expect(await runGolden([empty], none)).toBe(2);
    expect(none.errors.join("\n")).toContain("no *.tape files under");
  });

  it("a tmux that cannot be run is refused once with exit 2, not failed again by every tape", async () => {
    const dir = await hello({ "second.tape": ['run printf "hi\\n"', 'wait "hi"', ""].join("\n") });
    const io = captureIo();
    expect(await runGolden(["--tmux", "/nonexistent/tmux", dir], io)).toBe(2);
    expect(io.errors).toEqual([expect.stringContaining('cannot run "/nonexistent/tmux"')]);
    expect(io.text()).not.toContain("FAIL");
  });

  it("reports every tape error with file:line and still runs the other tapes, then exits 2", async () => {
    const dir = await hello({
      "broken.tape": ["size 80x24", "Set FontSize 32", "run true", "snapshot Bad Name", "Sleep 500ms", "Ctrl+C", "Type \"exit\"", ""].join("\n"),
      "also-broken.tape": "size 80by24\n",
    });
    const io = captureIo();
    expect(await runGolden([dir], io)).toBe(2);
    const out = io.text();
    expect(out).toMatch(/^FAIL .*also-broken\.tape \(tape errors\)$/m);
    expect(out).toMatch(/also-broken\.tape:1: bad size/);
    expect(out).toMatch(/also-broken\.tape: no run statement/);
    expect(out).toMatch(/^FAIL .*broken\.tape \(tape errors\)$/m);
    for (const [line, hint] of [
      [2, "did you mean: size 80x24"],
      [4, "bad snapshot name"],
      [5, "did you mean: wait"],
      [6, "did you mean: press C-c"],
      [7, 'did you mean: type "text"'],
    ] as const) {
      expect(out).toMatch(new RegExp(`broken\\.tape:${line}: .*${hint.replace(/[.*"()]/g, "\\$&")}`));
    }
    expect(out).toMatch(/^PASS .*hello\.tape/m);
    expect(io.lines.at(-1)).toBe("1 passed, 2 failed");
  });

  it("a tape whose name cannot name its golden folder is a tape error, found before it runs; the others run and the summary is printed", async () => {
    const dir = await hello({ "my tape.tape": ['run printf "hi\\n"', 'wait "hi"', "snapshot s", ""].join("\n") });
    const io = captureIo();
    expect(await runGolden([dir], io)).toBe(2);
    expect(io.text()).toMatch(/^FAIL .*my tape\.tape \(tape errors\)\n {2}.*my tape\.tape: the tape's name "my tape" cannot name its golden folder: rename the tape/m);
    expect(io.text()).toMatch(/^PASS .*hello\.tape/m);
    expect(io.lines.at(-1)).toBe("1 passed, 1 failed");
  });

  it("--list-stale refuses to guess while a tape has errors", async () => {
    const dir = await hello({ "broken.tape": "run true\nsnapshot Bad\n" });
    const io = captureIo();
    expect(await runGolden(["--list-stale", dir], io)).toBe(2);
    expect(io.errors.join("\n")).toContain("--list-stale needs every tape's snapshots");
  });

  it("a failure shows a blank screen as a few lines, not one per blank row", async () => {
    const dir = await tapeDir({ "blank.tape": ["size 30x20", "run sleep 5", 'wait "never" timeout 300ms', ""].join("\n") });
    dirs.push(dir);
    const io = captureIo();
    expect(await runGolden([dir], io)).toBe(1);
    const out = io.text();
    expect(out).toContain('"never" did not appear within 300 ms');
    expect(out).toContain("┆ rows 0–19 blank");
    expect(io.lines.length).toBeLessThan(10);
  });

  it.skipIf(!existsSync(join(ROOT, "dist/golden/main.js")))("the built CLI prints the summary line and exits 1 on a failure", async () => {
    const dir = await hello();
    await runGolden([dir], captureIo());
    const path = join(dir, "hello/greeting.golden");
    await writeFile(path, (await readFile(path, "utf8")).replace("hello", "HELLO"));
    const run = promisify(execFile);
    const failed = await run(process.execPath, [join(ROOT, "dist/cli.js"), "golden", dir], { env: { ...process.env, CI: "true" } }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain("-│HELLO");
    expect(failed?.stdout.trimEnd().split("\n").at(-1)).toBe("0 passed, 1 failed");
  });

  it("leaves no tmux server socket behind", async () => {
    expect(leftoverSockets()).toEqual([]);
    expect((await readdir(join(ROOT, "golden/tapes"))).filter((name) => name.startsWith("."))).toEqual([]);
  });
});
