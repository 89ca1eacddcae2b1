// Which tmux panescope runs with: the version is read from the binary itself, and a tmux older
// than 3.2 is refused at start by every face (MCP server, demo, golden) with what to do about it.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TmuxServer } from "../../src/tmux/server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(ROOT, "dist/cli.js");
let fakeDir = "";

beforeAll(async () => {
  // A stand-in for an old tmux: it only answers -V, which is all panescope asks before refusing.
  fakeDir = await mkdtemp(join(tmpdir(), "panescope-old-tmux-"));
  await writeFile(join(fakeDir, "tmux"), `#!${process.execPath}\nprocess.stdout.write("tmux 3.1c\\n");\n`);
  await chmod(join(fakeDir, "tmux"), 0o755);
});
afterAll(async () => {
  await rm(fakeDir, { recursive: true, force: true });
});

describe("tmux version", () => {
  it("is read from the binary on PATH (tmux -V), the same one every command runs", async () => {
    const printed = (await execa("tmux", ["-V"])).stdout.trim().split(/\s+/).pop();
    const version = await new TmuxServer().version();
    expect(version.label).toBe(printed);
    expect(version.supported).toBe(true);
  });

  it.skipIf(!existsSync(CLI))("an older tmux is refused at start by the MCP server, the demo and golden, naming its version", async () => {
    const run = promisify(execFile);
    const env = { ...process.env, PATH: `${fakeDir}:${process.env.PATH ?? ""}` };
    const refused = (args: string[]) => run(process.execPath, [CLI, ...args], { env, timeout: 20_000 }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    const message = /tmux is tmux 3\.1c, and panescope needs tmux 3\.2 or later: install a newer tmux .*--tmux PATH or PANESCOPE_TMUX/;
    for (const args of [["--tmux", join(fakeDir, "tmux")], ["demo"], ["golden", join(ROOT, "golden/tapes")]]) {
      const result = await refused(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
  });
});
