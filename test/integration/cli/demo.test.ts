// `panescope demo` runs to completion from the built package and leaves no tmux server behind.
import { existsSync } from "node:fs";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { socketFile } from "../../support/tmux-fixture.js";

describe("panescope demo", () => {
  it("prints rendered rows beside raw output for both panes and cleans up its server", async () => {
    const result = await execa(process.execPath, ["dist/cli.js", "demo"], { reject: false, timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const name = /-L (panescope-demo-[\w-]+)\)/.exec(result.stdout)?.[1];
    expect(name).toBeDefined();
    expect(result.stdout).toMatch(/capture_since %0 · progress bar, 1\.2 s later.*\n\s+rows: 1 changed/);
    expect(result.stdout).toMatch(/alternate screen/);
    expect(result.stdout).toContain("done: 40 MiB");
    const alive = await execa("tmux", ["-L", name ?? "", "list-sessions"], { reject: false });
    expect(alive.exitCode).not.toBe(0);
    expect(existsSync(socketFile(name ?? ""))).toBe(false);
  });

  it("still removes its server when its reader goes away early (panescope demo | head)", async () => {
    const child = execa(process.execPath, ["dist/cli.js", "demo"], { reject: false, timeout: 60_000, buffer: false });
    const firstLine = await new Promise<string>((resolve) => child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString())));
    child.stdout?.destroy();
    const result = await child;
    const name = /-L (panescope-demo-[\w-]+)\)/.exec(firstLine)?.[1] ?? "";
    expect(name).not.toBe("");
    expect(result.exitCode).toBe(0);
    const alive = await execa("tmux", ["-L", name, "list-sessions"], { reject: false });
    expect(alive.exitCode).not.toBe(0);
    expect(existsSync(socketFile(name))).toBe(false);
  });

  // Its first line comes while tmux is starting the server; its first answer once both panes run.
  it.each([
    ["as soon as it names its server", "-L panescope-demo-"],
    ["after its first answer", "── capture_since"],
  ])("removes its server and exits 130 when Ctrl-C stops it %s", async (_when, mark) => {
    const child = execa(process.execPath, ["dist/cli.js", "demo"], { reject: false, timeout: 60_000, buffer: false });
    let seen = "";
    await new Promise<void>((resolve) =>
      child.stdout?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes(mark)) resolve();
      }),
    );
    child.kill("SIGINT");
    const result = await child;
    const name = /-L (panescope-demo-[\w-]+)\)/.exec(seen)?.[1] ?? "";
    expect(name).not.toBe("");
    const alive = await execa("tmux", ["-L", name, "list-sessions"], { reject: false });
    if (alive.exitCode === 0) await execa("tmux", ["-L", name, "kill-server"], { reject: false });
    expect(alive.exitCode).not.toBe(0);
    expect(existsSync(socketFile(name))).toBe(false);
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(130);
  });
});
