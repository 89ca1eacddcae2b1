// README "Golden-file testing": the hello.tape shown there, run by the built CLI, writes exactly the
// golden shown there and then passes (README is a contract: its examples run).
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
const tape = /cat > golden\/hello\.tape <<'EOF'\n([\s\S]*?)\nEOF/.exec(readme)?.[1];
const golden = /The first run writes the missing golden[\s\S]*?```text\n(panescope golden v1[\s\S]*?)```/.exec(readme)?.[1];
const dir = await mkdtemp(join(tmpdir(), "panescope-readme-tape-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the README's hello.tape", () => {
  it("writes the golden the README shows, then passes against it", async () => {
    expect(tape).toBeDefined();
    expect(golden).toBeDefined();
    await mkdir(join(dir, "golden"));
    await writeFile(join(dir, "golden/hello.tape"), `${tape ?? ""}\n`);
    const cli = (env: Record<string, string>) =>
      execa(process.execPath, [join(import.meta.dirname, "../../dist/cli.js"), "golden"], { cwd: dir, reject: false, env: { CI: "", ...env } });
    const first = await cli({});
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(await readFile(join(dir, "golden/hello/greeting.golden"), "utf8")).toBe(golden);
    const again = await cli({ CI: "true" });
    expect(again.stdout).toMatch(/^1 passed, 0 failed$/m);
    expect(again.exitCode).toBe(0);
  });
});
