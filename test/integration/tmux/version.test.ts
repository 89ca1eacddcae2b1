// Which tmux panescope runs with: the version is read from the binary itself, and a tmux older
// than 3.2 is refused with what to do about it: at start by the demo and golden; by the MCP server
// on every tool call, which keeps running (an exit reaches an MCP client as "Connection closed").
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TmuxServer } from "../../../src/tmux/server.js";

const ROOT = resolve(import.meta.dirname, "../../..");
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

  it.skipIf(!existsSync(CLI))("an older tmux is refused at start by the demo and golden, naming its version", async () => {
    const run = promisify(execFile);
    // Not PANESCOPE_TMUX: ../shared/tmux/each sets it, and it would win over the fake on PATH.
    const { PANESCOPE_TMUX: _unused, ...inherited } = process.env;
    const env = { ...inherited, PATH: `${fakeDir}:${process.env.PATH ?? ""}` };
    const refused = (args: string[]) => run(process.execPath, [CLI, ...args], { env, timeout: 20_000 }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    const message = /tmux is tmux 3\.1c, and panescope needs tmux 3\.2 or later: install a newer tmux .*--tmux PATH or PANESCOPE_TMUX/;
    for (const args of [["demo"], ["golden", join(ROOT, "golden/tapes")]]) {
      const result = await refused(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
  });

  it.skipIf(!existsSync(CLI))("with an older tmux the MCP server stays up and every tool answers tmux-unsupported with what to install", { timeout: 30_000 }, async () => {
    const { PANESCOPE_TMUX: _unused, ...inherited } = process.env;
    const child = execa(process.execPath, [CLI, "--tmux", join(fakeDir, "tmux")], { env: inherited, extendEnv: false, stdin: "pipe", stdout: "pipe", stderr: "pipe", reject: false });
    const answers = new Map<number, (message: Record<string, unknown>) => void>();
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
        const message = JSON.parse(out.slice(0, nl)) as Record<string, unknown>;
        out = out.slice(nl + 1);
        if (typeof message.id === "number") answers.get(message.id)?.(message);
      }
    });
    const request = (id: number, method: string, params: object) =>
      new Promise<Record<string, unknown>>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    await request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    let id = 2;
    for (const [name, args] of [["list_panes", {}], ["capture_since", { paneId: "%0" }], ["open_pane", {}]] as const) {
      const { result } = (await request(id++, "tools/call", { name, arguments: args })) as { result: { isError?: boolean; content: { text: string }[]; _meta?: object } };
      expect(result.isError, name).toBe(true);
      expect(result._meta, name).toEqual({ "panescope/error": "tmux-unsupported" });
      expect(result.content[0]?.text, name).toMatch(/^error \(tmux-unsupported\): .*tmux 3\.1c, and panescope needs tmux 3\.2 or later: install a newer tmux .*restart it/);
    }
    child.stdin.end();
    const ended = await child;
    expect(ended.exitCode).toBe(0);
    expect(ended.stderr).toMatch(/tmux 3\.1c, and panescope needs tmux 3\.2/);
  });
});
