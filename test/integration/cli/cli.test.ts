// The built `panescope` command as a person meets it: help that does not run anything, refusals
// with exit status 2, and a bare `panescope` typed in a terminal that says what it is and serves.
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { startPaneSession, type PaneSession } from "../../../src/golden/index.js";
import { TERMINAL_HINT } from "../../../src/options.js";

const CLI = resolve(import.meta.dirname, "../../../dist/cli.js");
const env = { PANESCOPE_SOCKET: `panescope-cli-test-${process.pid}`, PANESCOPE_SOCKET_PATH: "", PANESCOPE_READ_ONLY: "", PANESCOPE_TMUX: "" };
const cli = (args: string[], extra: Record<string, string> = {}) =>
  execa(process.execPath, [CLI, ...args], { reject: false, timeout: 20_000, env: { ...env, ...extra }, stdin: "ignore" });

let session: PaneSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe("panescope on the command line", () => {
  it("panescope demo --help prints the demo's help and runs no demo", async () => {
    const result = await cli(["demo", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^usage: panescope demo \[--tmux PATH\]/);
    expect(result.stdout).not.toContain("capture_since %");
  });

  it("panescope --help lists -L, -S and the environment variables", async () => {
    const result = await cli(["--help"]);
    expect(result.exitCode).toBe(0);
    for (const text of ["-L, --socket NAME", "-S, --socket-path PATH", "PANESCOPE_SOCKET", "PANESCOPE_READ_ONLY", "PANESCOPE_TMUX"]) expect(result.stdout).toContain(text);
  });

  it("refuses conflicting flags, an unknown boolean and -L for the demo with exit status 2 and a message", async () => {
    const conflict = await cli(["--socket", "a", "--socket-path", "/b"]);
    expect(conflict.exitCode).toBe(2);
    expect(conflict.stderr).toContain("both name a tmux server: give one");
    const boolean = await cli([], { PANESCOPE_READ_ONLY: "maybe" });
    expect(boolean.exitCode).toBe(2);
    expect(boolean.stderr).toContain("PANESCOPE_READ_ONLY must be 1/true/yes/on or 0/false/no/off");
    const demo = await cli(["demo", "-L", "work"]);
    expect(demo.exitCode).toBe(2);
    expect(demo.stderr).toContain("starts and removes its own private tmux server");
  });

  it("panescope demo and golden use --tmux and PANESCOPE_TMUX", async () => {
    const demo = await cli(["demo", "--tmux", "/nonexistent/tmux"]);
    expect(demo.exitCode).not.toBe(0);
    expect(demo.stderr).toContain('cannot run "/nonexistent/tmux"');
    const golden = await cli(["golden", join(import.meta.dirname, "../../../golden/tapes/prompt.tape")], { PANESCOPE_TMUX: "/nonexistent/tmux" });
    // Refused once, before any tape runs: a usage error (2), not a failed test (1).
    expect(golden.exitCode).toBe(2);
    expect(golden.stderr).toContain('cannot run "/nonexistent/tmux"');
    expect(golden.stdout).not.toContain("FAIL");
  });

  it("a bare panescope in a terminal prints a one-line hint on stderr and keeps serving", async () => {
    // A real terminal: a tmux pane whose stdin is its tty, as when a person types `panescope`.
    session = await startPaneSession({ size: { cols: 1000, rows: 8 }, command: [process.execPath, CLI], env: { PANESCOPE_SOCKET: env.PANESCOPE_SOCKET } });
    await session.waitFor({ kind: "text", text: TERMINAL_HINT }, 10_000);
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "typed", version: "0" } } };
    await session.typeText(`${JSON.stringify(initialize)}\n`);
    await session.waitFor({ kind: "text", text: '"serverInfo":{"name":"panescope"' }, 10_000);
  });
});
