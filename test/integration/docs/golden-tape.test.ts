// docs/golden.md is a contract: its hello.tape, run by the built CLI, writes exactly the golden
// shown there, prints the outputs shown there (first run, changed screen), and its VHS-style tape
// gets the errors shown there. Only the timing in "(1 snapshot, 1.3s)" may differ.
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const page = await readFile(new URL("../../../docs/golden.md", import.meta.url), "utf8");
/** The body of the first fenced block after `marker` (a heading or text on the page). */
function blockAfter(marker: string, lang = "text"): string {
  const at = page.indexOf(marker);
  expect(at, `docs/golden.md has no "${marker}"`).toBeGreaterThanOrEqual(0);
  const body = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(page.slice(at))?.[1];
  expect(body, `no ${lang} block after "${marker}"`).toBeDefined();
  return body ?? "";
}
const heredoc = (name: string): string => new RegExp(`cat > golden/${name} <<'EOF'\\n([\\s\\S]*?)\\nEOF`).exec(page)?.[1] ?? "";
const timing = (text: string): string => text.replace(/\(1 snapshot, \d+\.\ds\)/g, "(1 snapshot, N s)");

const dir = await mkdtemp(join(tmpdir(), "panescope-docs-tape-"));
afterAll(() => rm(dir, { recursive: true, force: true }));
const cli = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [join(import.meta.dirname, "../../../dist/cli.js"), "golden", ...args], { cwd: dir, reject: false, env: { CI: "", PANESCOPE_UPDATE: "", ...env } });

describe("docs/golden.md", () => {
  it("hello.tape writes the golden the page shows, printing what the page shows, then passes against it", async () => {
    const tape = heredoc("hello.tape");
    expect(tape).toContain("snapshot greeting");
    await mkdir(join(dir, "golden"));
    await writeFile(join(dir, "golden/hello.tape"), `${tape}\n`);
    const first = await cli([]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(timing(first.stdout)).toBe(timing(blockAfter("## 2. Run it")).trimEnd());
    expect(await readFile(join(dir, "golden/hello/greeting.golden"), "utf8")).toBe(blockAfter("The first run writes the missing golden"));
    const again = await cli([], { CI: "true" });
    expect(again.stdout).toMatch(/^1 passed, 0 failed$/m);
    expect(again.exitCode).toBe(0);
  });

  it("the changed tape fails with the diff the page shows", async () => {
    const tape = await readFile(join(dir, "golden/hello.tape"), "utf8");
    await writeFile(join(dir, "golden/hello.tape"), tape.replaceAll("hello, golden", "hello, world"));
    const changed = await cli([]);
    expect(changed.exitCode).toBe(1);
    expect(timing(changed.stdout)).toBe(timing(blockAfter("## 3. When the screen changes")).trimEnd());
  });

  it("the VHS-style tape gets the errors the page shows, exit status 2", async () => {
    await writeFile(join(dir, "golden/vhs.tape"), `${heredoc("vhs.tape")}\n`);
    const vhs = await cli(["golden/vhs.tape"]);
    expect(vhs.exitCode).toBe(2);
    expect(vhs.stdout).toBe(blockAfter("## Tape errors").trimEnd());
  });
});
