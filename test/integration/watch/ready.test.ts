// Ready for input, from /proc, on a real tmux server: programs at their prompt read as ready; one
// that printed its prompt but sleeps before it reads does not (until it reads); a busy loop and a
// plain sleep never do. Every step awaits a condition; nothing waits for time to pass.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { paneCommand } from "../../../src/mcp/pane-command.js";
import { openedPane } from "../../../src/watch/opened-pane.js";
import { paneReadiness, type Readiness } from "../../../src/watch/ready.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

afterEach(killAllServers);

async function paneOf(test: TestServer, command: string): Promise<string> {
  const [paneId = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:", command]);
  return paneId;
}

async function until(test: TestServer, paneId: string, holds: (r: Readiness) => boolean, what: string): Promise<Readiness> {
  let last: Readiness | undefined;
  await waitFor(async () => holds((last = await paneReadiness(test.server, paneId))), 15_000, `${paneId} ${what} (last: ${JSON.stringify(last)})`);
  return last as Readiness;
}

const screen = async (test: TestServer, paneId: string) => (await test.run(["capture-pane", "-p", "-t", paneId])).join("\n");

describe.runIf(process.platform === "linux")("ready: the foreground program is blocked reading its terminal", () => {
  it("a shell at its prompt, python3 and vim are ready", { timeout: 60_000 }, async () => {
    const test = await startServer({ command: "sh", env: { PS1: "$ " } });
    const python = await paneOf(test, "python3 -q");
    const vim = await paneOf(test, "vim -u NONE -N -n");
    for (const paneId of ["%0", python, vim]) {
      const found = await until(test, paneId, (r) => r.ready === true, "ready");
      expect(found).toMatchObject({ ready: true, evidence: "proc" });
      expect(found.detail).toMatch(/waiting for input on \/dev\/pts\/\d+/);
    }
    await waitFor(async () => (await screen(test, python)).includes(">>>"), 15_000, "python's prompt");
  });

  it("a program that printed its prompt and sleeps before it reads is not ready until it reads", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const paneId = await paneOf(test, "printf 'name? '; sleep 600; read name; echo \"got $name\"; read end");
    await waitFor(async () => (await screen(test, paneId)).includes("name?"), 15_000, "the prompt");
    // The prompt is on the screen, the sleep is in the foreground: what a prompt regex gets wrong.
    const sleeping = await until(test, paneId, (r) => /sleep/.test(r.detail), "the sleep in the foreground");
    expect(sleeping).toMatchObject({ ready: false, evidence: "proc" });
    // End the sleep (the process this test started, by its id): the shell then reads.
    const [panePid = ""] = await test.run(["display-message", "-p", "-t", paneId, "#{pane_pid}"]);
    const sleep = Number(readFileSync(`/proc/${panePid}/task/${panePid}/children`, "utf8").trim().split(" ")[0]);
    expect(readFileSync(`/proc/${sleep}/comm`, "utf8").trim()).toBe("sleep");
    process.kill(sleep, "SIGTERM");
    const reading = await until(test, paneId, (r) => r.ready === true, "ready once it reads");
    expect(reading.detail).toMatch(/sh \(pid \d+, S in \w+\) is waiting for input/);
    await test.run(["send-keys", "-t", paneId, "-l", "bob\n"]);
    await waitFor(async () => (await screen(test, paneId)).includes("got bob"), 15_000, "the answer");
  });

  it("a busy loop is never ready and `sleep 100` is blocked but not reading its terminal", { timeout: 60_000 }, async () => {
    const test = await startServer();
    const busy = await paneOf(test, "while :; do :; done");
    const sleeping = await paneOf(test, "sleep 100");
    await until(test, busy, (r) => /running/.test(r.detail), "running");
    for (let i = 0; i < 20; i++) expect((await paneReadiness(test.server, busy)).ready).toBe(false);
    const slept = await until(test, sleeping, (r) => /sleep/.test(r.detail), "asleep");
    expect(slept).toMatchObject({ ready: false, evidence: "proc" });
    expect(slept.detail).toMatch(/sleep \(pid \d+, S in hrtimer_nanosleep\): not reading/);
  });

  it("a pane panescope opened whose program ended is held, not ready", { timeout: 60_000 }, async () => {
    const test = await startServer();
    // The wrapper's tmux, a stand-in that notes each client's open files before it runs the real one:
    // a client polling its socket with the pane's tty open reads as ready to a look that catches it.
    const dir = mkdtempSync(join(tmpdir(), "panescope-ready-"));
    const clients = join(dir, "fds");
    const tmux = join(dir, "tmux");
    writeFileSync(tmux, `#!/bin/sh\nfor fd in /proc/$$/fd/*; do readlink "$fd"; done >> '${clients}'\necho -- >> '${clients}'\nexec '${test.server.tmux}' "$@"\n`, { mode: 0o755 });
    const launch = paneCommand("exit 4", "/bin/sh", tmux);
    const [found = ""] = await test.run(["new-window", "-d", "-P", "-F", "#{pane_id} #{pane_pid} #{pane_tty}", "-t", "main:", "--", ...launch.argv]);
    const [paneId = "", pid = "", tty = ""] = found.split(" ");
    await test.run(["wait-for", "-S", launch.gate]);
    await waitFor(() => openedPane(Number(pid))?.ended === 4, 15_000, "the held wrapper");
    const held = await until(test, paneId, (r) => r.evidence === "proc", "a look");
    expect(held).toMatchObject({ ready: false, evidence: "proc" });
    // The gate, the hint, the "ended" signal and the hold: four clients, none with the tty open.
    const looks = (): string[] => readFileSync(clients, "utf8").split("--\n").slice(0, -1);
    await waitFor(() => looks().length === 4, 15_000, "the holding client");
    for (const fds of looks()) expect(fds.split("\n")).not.toContain(tty);
    rmSync(dir, { recursive: true, force: true });
  });
});
