// The golden store: paths, atomic writes, the approval decision matrix (CI never writes) and the
// listing of goldens no scenario used. File tests run in fresh temporary directories.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPanescopeError } from "../../src/errors.js";
import { decide, goldenPath, isCI, isUpdate, listStale, readGolden, writeGolden } from "../../src/golden/store.js";

describe("goldenPath", () => {
  it("puts a snapshot under a folder named after the tape", () => {
    expect(goldenPath("golden", "golden/less.tape", "first-page")).toBe(join("golden", "less", "first-page.golden"));
    expect(goldenPath("out", "my-suite", "a.b")).toBe(join("out", "my-suite", "a.b.golden"));
  });

  it.each([
    ["../etc", "x"],
    ["suite", "../x"],
    ["a/b", "x"],
    ["suite", ".hidden"],
    ["suite", ""],
  ])("refuses suite %j and name %j that would leave the folder", (suite, name) => {
    expect(() => goldenPath("golden", suite, name)).toThrow(/cannot name a golden file/);
  });
});

describe("decide", () => {
  const same = "panescope golden v1\nrow\n";
  const other = "panescope golden v1\nROW\n";

  it.each([
    // expected, actual, update, ci → kind
    [same, same, false, false, "pass"],
    [same, same, true, false, "pass"],
    [same, same, false, true, "pass"],
    [same, same, true, true, "pass"],
    [same, other, false, false, "fail"],
    [same, other, true, false, "written"],
    [same, other, false, true, "fail"],
    [same, other, true, true, "fail"],
    [undefined, same, false, false, "written"],
    [undefined, same, true, false, "written"],
    [undefined, same, false, true, "missing-in-ci"],
    [undefined, same, true, true, "missing-in-ci"],
  ])("golden %j vs %j with update=%s ci=%s is %s", (expected, actual, update, ci, kind) => {
    expect(decide({ expected, actual, update, ci }).kind).toBe(kind);
  });

  it("fails a mismatch with the diff and how to approve it", () => {
    const decision = decide({ expected: same, actual: other, update: false, ci: false, path: "golden/x/y.golden" });
    expect(decision.kind).toBe("fail");
    if (decision.kind !== "fail") return;
    expect(decision.diff).toContain("--- golden/x/y.golden\n+++ actual screen\n");
    expect(decision.diff).toContain("-row\n+ROW\n");
    expect(decision.message).toContain("re-run with --update (or vitest -u, or PANESCOPE_UPDATE=1)");
    expect(decision.message).toContain(decision.diff);
  });

  it("tells CI that it never writes, for a missing golden and for an update", () => {
    const missing = decide({ actual: same, update: false, ci: true, path: "golden/x/y.golden" });
    expect(missing).toMatchObject({ kind: "missing-in-ci", message: expect.stringContaining("golden/x/y.golden is missing and CI never writes") });
    const update = decide({ expected: same, actual: other, update: true, ci: true });
    expect(update).toMatchObject({ kind: "fail", message: expect.stringContaining("CI never writes goldens") });
  });

  it("says whether a write is a new golden or an update", () => {
    expect(decide({ actual: same, update: false, ci: false })).toEqual({ kind: "written", reason: "new" });
    expect(decide({ expected: same, actual: other, update: true, ci: false })).toEqual({ kind: "written", reason: "updated" });
  });
});

describe("isCI and isUpdate", () => {
  it.each([
    ["true", true],
    ["1", true],
    ["TRUE", true],
    ["false", false],
    ["0", false],
    ["", false],
    [undefined, false],
  ])("reads CI=%j as %s", (value, ci) => {
    expect(isCI(value === undefined ? {} : { CI: value })).toBe(ci);
  });

  it("asks for an update by flag or by PANESCOPE_UPDATE", () => {
    expect(isUpdate(true, {})).toBe(true);
    expect(isUpdate(false, { PANESCOPE_UPDATE: "1" })).toBe(true);
    expect(isUpdate(false, { PANESCOPE_UPDATE: "0" })).toBe(false);
    expect(isUpdate(false, {})).toBe(false);
  });

  it("reads PANESCOPE_UPDATE as every other boolean: yes/on count, a word it does not know is refused", () => {
    expect(isUpdate(false, { PANESCOPE_UPDATE: "yes" })).toBe(true);
    expect(isUpdate(false, { PANESCOPE_UPDATE: "ON" })).toBe(true);
    expect(isUpdate(false, { PANESCOPE_UPDATE: "off" })).toBe(false);
    expect(() => isUpdate(false, { PANESCOPE_UPDATE: "please" })).toThrow("PANESCOPE_UPDATE must be 1/true/yes/on or 0/false/no/off");
  });
});

describe("files", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "panescope-golden-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a missing golden as undefined", async () => {
    expect(await readGolden(join(dir, "none", "x.golden"))).toBeUndefined();
  });

  it("creates folders, writes atomically and leaves no temporary file", async () => {
    const path = goldenPath(dir, "demo.tape", "first");
    await writeGolden(path, "one\n");
    await writeGolden(path, "two\n");
    expect(await readGolden(path)).toBe("two\n");
    expect(await readdir(join(dir, "demo"))).toEqual(["first.golden"]);
  });

  it("rewrites a golden on update: decide says written, the store writes the actual screen", async () => {
    const path = goldenPath(dir, "demo", "s");
    await writeGolden(path, "old\n");
    const actual = "new\n";
    const decision = decide({ expected: await readGolden(path), actual, update: true, ci: false });
    if (decision.kind === "written") await writeGolden(path, actual);
    expect(await readFile(path, "utf8")).toBe(actual);
  });

  it("reads a golden checked out with CRLF line ends as LF", async () => {
    const path = join(dir, "crlf.golden");
    await writeFile(path, "a\r\nb\r\n");
    expect(await readGolden(path)).toBe("a\nb\n");
  });

  it("reads a golden whose final newline an editor stripped as if it had it, with LF or CRLF line ends", async () => {
    const path = join(dir, "no-eol.golden");
    await writeFile(path, "a\nb");
    expect(await readGolden(path)).toBe("a\nb\n");
    await writeFile(path, "a\r\nb");
    expect(await readGolden(path)).toBe("a\nb\n");
    await writeFile(path, "");
    expect(await readGolden(path)).toBe("");
  });

  it("reports a write it cannot do as a golden error", async () => {
    const blocker = join(dir, "file");
    await writeFile(blocker, "");
    try {
      await writeGolden(join(blocker, "x.golden"), "x");
      expect.unreachable();
    } catch (error) {
      expect(isPanescopeError(error, "golden")).toBe(true);
      expect((error as Error).message).toContain("cannot write golden");
    }
  });

  it("lists golden files no scenario used, sorted, ignoring other files and symlinks", async () => {
    const used = goldenPath(dir, "a", "used");
    await writeGolden(used, "x\n");
    await writeGolden(goldenPath(dir, "a", "old"), "x\n");
    await writeGolden(goldenPath(dir, "b", "gone"), "x\n");
    await writeFile(join(dir, "a", "notes.txt"), "not a golden");
    const outside = await mkdtemp(join(tmpdir(), "panescope-outside-"));
    await writeGolden(join(outside, "elsewhere.golden"), "x\n");
    await symlink(outside, join(dir, "link"));
    await mkdir(join(dir, "empty"));
    try {
      expect(await listStale(dir, [used])).toEqual([join(dir, "a", "old.golden"), join(dir, "b", "gone.golden")]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("lists nothing for a golden folder that does not exist", async () => {
    expect(await listStale(join(dir, "missing"), [])).toEqual([]);
  });
});
