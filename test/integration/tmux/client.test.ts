// The control client against a real, private tmux server (test/support/tmux-fixture.ts): output byte-exactness,
// quoting, replies, exit, pause/continue, window size, and the session registry.

import { afterAll, afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { ControlClient, defaultSpawn, type ControlProcess } from "../../../src/tmux/client.js";
import type { ControlEvent } from "../../../src/tmux/events.js";
import { TmuxFormat } from "../../../src/tmux/format.js";
import { SessionRegistry } from "../../../src/tmux/sessions.js";
import { TmuxServer } from "../../../src/tmux/server.js";
import { isPanescopeError } from "../../../src/errors.js";
import { collectOutput, killAllServers, nextEvent, lookFor, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const clients: ControlClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await killAllServers();
});
afterAll(killAllServers);

async function attach(t: TestServer, options: Partial<Parameters<typeof ControlClient.start>[0]> = {}): Promise<ControlClient> {
  const client = await ControlClient.start({ server: t.server, session: t.session, ...options });
  clients.push(client);
  return client;
}

/** Open a new window running `command` (a shell command); resolves to its pane id. */
async function newPane(client: ControlClient, command: string): Promise<string> {
  const [paneId = ""] = await client.command(["new-window", "-d", "-P", "-F", "#{pane_id}", command]);
  return paneId;
}

const isType = <K extends ControlEvent["type"]>(type: K, paneId?: string) =>
  (e: ControlEvent): e is Extract<ControlEvent, { type: K }> => e.type === type && (paneId === undefined || ("paneId" in e && e.paneId === paneId));

describe("ControlClient against a real tmux server", () => {
  it("delivers a pane's output byte-exact: every byte value, backslashes, CJK and invalid UTF-8", async () => {
    const t = await startServer();
    const client = await attach(t);
    const payload = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from("\\\\0 \\012 漢字かな"), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe6, 0xbc])]);
    // Raw mode so the tty's onlcr does not turn \n into \r\n; the script writes the payload once.
    const script = `process.stdout.write(Buffer.from(${JSON.stringify(payload.toString("base64"))}, "base64"), () => setTimeout(() => {}, 10000))`;
    const outputs = new Map<string, Uint8Array[]>();
    client.on((e) => {
      if (e.type === "output") outputs.set(e.paneId, [...(outputs.get(e.paneId) ?? []), e.data]);
    });
    const paneId = await newPane(client, `stty raw -echo && exec node -e '${script}'`);
    const got = (): Buffer => Buffer.concat(outputs.get(paneId) ?? []);
    await waitFor(() => got().length >= payload.length, 5000, "the payload");
    expect(got().equals(payload)).toBe(true);
  });

  it("carries hostile quoting literally and the server survives", async () => {
    const t = await startServer();
    const client = await attach(t);
    const hostile = `x'"; kill-server #{pane_id} $HOME \n ~ \\ ; # {}`;
    await client.command(["set-option", "-p", "-t", "%0", "@title", hostile]);
    // Read back through a format: tmux 3.4 and 3.5a escape command output (show-options too).
    const format = new TmuxFormat({ title: "@title" });
    expect(format.parseOne(await client.command(["display-message", "-p", "-t", "%0", format.text]))).toEqual({ title: hostile });
    expect(await t.run(["display-message", "-p", "ok"])).toEqual(["ok"]);
  });

  it("round-trips 300 random hostile strings through tmux's parser as single arguments", async () => {
    const t = await startServer();
    const client = await attach(t);
    const unit = fc.oneof(fc.constantFrom("\\", '"', "'", "$", "~", "#", "{", "}", ";", "\n", "\r", "\t", "-", " ", "%", "\u001b", "\u007f"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 }));
    const values = fc.sample(fc.string({ unit, maxLength: 24 }).filter((v) => !v.includes("\0")), { seed: 4242, numRuns: 300 });
    const format = new TmuxFormat({ v: "@v" });
    const replies = await Promise.all(values.map((v) => client.commands([["set-option", "-p", "-t", "%0", "--", "@v", v], ["display-message", "-p", "-t", "%0", format.text]])));
    replies.forEach((reply, i) => expect(format.parseOne(reply[1] ?? [])?.v).toBe(values[i]));
    expect(await t.run(["list-sessions", "-F", "#{session_name}"])).toEqual(["main"]);
  });

  it("answers each command of a ';' line with its own reply, and stops at the first error", async () => {
    const t = await startServer();
    const client = await attach(t);
    expect(await client.commands([["display-message", "-p", "a"], ["display-message", "-p", "b c"]])).toEqual([["a"], ["b c"]]);
    const failed = client.commands([["display-message", "-p", "a"], ["kill-pane", "-t", "%99"], ["display-message", "-p", "never"]]);
    await expect(failed).rejects.toMatchObject({ kind: "command-failed", message: expect.stringContaining("can't find pane") });
    // Pairing is intact afterwards: the next command gets its own reply.
    expect(await client.command(["display-message", "-p", "after"])).toEqual(["after"]);
  });

  it("consumes the late reply of a timed-out command without confusing the next one", async () => {
    const t = await startServer();
    const client = await attach(t);
    // tmux 3.3a closes a waiting command's block at once but holds the next command until the
    // channel is signalled, so `display` on the same line is the reply that arrives late.
    const slow = client.commands([["wait-for", "chan"], ["display-message", "-p", "late"]], { timeoutMs: 100 });
    await expect(slow).rejects.toMatchObject({ kind: "timeout" });
    await t.run(["wait-for", "-S", "chan"]);
    const controller = new AbortController();
    const aborted = client.command(["display-message", "-p", "aborted"], { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ kind: "aborted" });
    expect(await client.command(["display-message", "-p", "next"])).toEqual(["next"]);
  });

  it("reports %exit and rejects later commands when the server is killed", async () => {
    const t = await startServer();
    const client = await attach(t);
    const exitEvent = nextEvent(client, isType("exit"));
    await t.kill();
    await exitEvent;
    await client.exited;
    await expect(client.command(["display-message", "-p", "x"])).rejects.toMatchObject({ kind: "tmux-exited" });
    await expect(t.run(["list-sessions"])).rejects.toSatisfy((e) => isPanescopeError(e, "no-server"));
  });

  it("rejects a pending command promptly with tmux-exited when the server dies", async () => {
    const t = await startServer();
    const client = await attach(t);
    const { pid } = await t.server.serverGeneration();
    // kill-server releases wait-for waiters first, so a pending command needs an abrupt death.
    const pending = client.commands([["wait-for", "never"], ["display-message", "-p", "x"]], { timeoutMs: 30_000 });
    process.kill(pid, "SIGKILL");
    // Rejected by the death (tmux-exited), not by the command's 30 s timeout (a timeout kind).
    await expect(pending).rejects.toMatchObject({ kind: "tmux-exited" });
    await client.exited;
    await t.kill();
  });

  it("pauses a pane on request and flows again after continue", async () => {
    const t = await startServer();
    const client = await attach(t);
    const paneId = await newPane(client, "cat");
    const paused = nextEvent(client, isType("pause", paneId));
    await client.command(["refresh-client", "-A", `${paneId}:pause`]);
    expect(await paused).toMatchObject({ paneId, requested: true });
    const continued = nextEvent(client, isType("continue", paneId));
    await client.command(["refresh-client", "-A", `${paneId}:continue`]);
    await continued;
    const out = collectOutput(client, paneId);
    await client.command(["send-keys", "-t", paneId, "-l", "flowing"]);
    await waitFor(() => Buffer.from(out.bytes()).toString().includes("flowing"), 5000, "output after continue");
  });

  it("resumes on its own when tmux pauses a pane because the reader fell behind", { timeout: 60_000 }, async () => {
    const t = await startServer();
    let proc: ControlProcess | undefined;
    const client = await attach(t, { pauseAfterSeconds: 1, spawn: (f, a) => (proc = defaultSpawn(f, a)) });
    // tmux 3.3a stops reading a pane whose attached clients are all control clients that cannot
    // take more, so a lone stalled client freezes the pane instead of being paused: a second,
    // reading control client keeps the pane flowing while ours stalls.
    await attach(t, { pauseAfterSeconds: 0 });
    const paneId = await newPane(client, "yes panescope");
    const events: ControlEvent[] = [];
    client.on((e) => {
      if ((e.type === "pause" || e.type === "continue") && e.paneId === paneId) events.push(e);
    });
    const stdout = proc?.stdout;
    if (!stdout) throw new Error("the client did not spawn tmux through the seam");
    // The fault: stop reading tmux for longer than pause-after (1 s). tmux writes to our pipe
    // directly, so the pipe backs up and tmux's queue for us ages. A reply to a command sent after
    // the stall comes after everything tmux queued before it, so when it arrives we know whether
    // tmux paused the pane during the stall; a loaded machine may need the stall more than once.
    for (let attempt = 0; attempt < 5 && !events.some((e) => e.type === "pause"); attempt++) {
      stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      stdout.resume();
      await client.command(["display-message", "-p", "after the stall"], { timeoutMs: 30_000 });
    }
    const pause = events.find((e) => e.type === "pause");
    expect(pause).toMatchObject({ type: "pause", paneId });
    expect(pause?.type === "pause" && pause.requested).not.toBe(true);
    // The client resumed the pane itself: tmux says %continue and the pane's output flows again.
    await waitFor(() => events.some((e) => e.type === "continue"), 10_000, "%continue");
    await nextEvent(client, isType("output", paneId), 10_000);
  });

  it("hears tmux's %pause without sending a command: tmux can leave it queued with its writes off", { timeout: 90_000 }, async () => {
    // tmux (3.2a–3.7c control.c) can pause panes inside its write callback and then leave the
    // %pause lines queued with its write event off; only something that makes tmux write again
    // delivers them. The client's nudge does; without it this wedged about half the stalls here.
    const t = await startServer();
    let proc: ControlProcess | undefined;
    const client = await attach(t, { pauseAfterSeconds: 1, spawn: (f, a) => (proc = defaultSpawn(f, a)) });
    await attach(t, { pauseAfterSeconds: 0 });
    await newPane(client, "yes panescope");
    await newPane(client, "yes other");
    let pauses = 0;
    client.on((e) => {
      if (e.type === "pause" && e.requested !== true) pauses++;
    });
    const stdout = proc?.stdout;
    if (!stdout) throw new Error("the client did not spawn tmux through the seam");
    let conclusive = 0;
    for (let attempt = 0; attempt < 6 && conclusive < 2; attempt++) {
      const before = pauses;
      stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      stdout.resume();
      // We send nothing: a %pause must reach us on its own (the nudge comes ~300 ms after quiet).
      await lookFor(() => pauses > before, 3000);
      const heard = pauses > before;
      // Now ask: a reply comes after whatever tmux queued before it. A pause that only shows up now
      // was stuck in tmux's queue; no pause at all means this stall did not make tmux pause (retry).
      await client.command(["display-message", "-p", "marker"], { timeoutMs: 30_000 });
      if (pauses === before) continue;
      expect(heard, "a %pause reached us only after we sent a command").toBe(true);
      conclusive++;
    }
    expect(conclusive).toBe(2);
  });

  it("does not resize the window: an unsized session and one with a real 120x40 client stay 120x40", async () => {
    const t = await startServer({ cols: 120, rows: 40 });
    const size = async (): Promise<string> => (await t.run(["display-message", "-p", "-t", "main", "#{window_width}x#{window_height}"]))[0] ?? "";
    const client = await attach(t);
    await client.command(["display-message", "-p", "x"]);
    expect(await size()).toBe("120x40");
    await client.close();
    // A real tty client of 120x41 (one row is its status line) sizes the window to 120x40.
    const { execa } = await import("execa");
    const tty = execa("script", ["-qfc", `stty cols 120 rows 41; exec tmux -L ${t.name} attach -t main`, "/dev/null"], { reject: false, stdin: "pipe" });
    try {
      await waitFor(async () => (await t.run(["list-clients", "-F", "#{client_control_mode}"])).includes("0"), 5000, "the tty client");
      expect(await size()).toBe("120x40");
      const watcher = await attach(t);
      await watcher.command(["display-message", "-p", "x"]);
      await watcher.command(["list-windows"]);
      expect(await size()).toBe("120x40");
    } finally {
      tty.kill();
      await tty;
    }
  });

  it("closes behind two flooding panes: it pauses both for itself first, and tmux's server lives on", { timeout: 60_000 }, async () => {
    // tmux 3.2a–3.7c could exit when a control client's stdin closed with output still queued for
    // it while a pane printed on (ControlClient.pauseEveryPane): the pause leaves nothing queued.
    const t = await startServer();
    let proc: ControlProcess | undefined;
    const client = await ControlClient.start({ server: t.server, session: t.session, pauseAfterSeconds: 0, spawn: (f, a) => (proc = defaultSpawn(f, a)) });
    const panes = [await newPane(client, "yes first flood"), await newPane(client, "yes second flood")];
    const [main = ""] = await t.run(["display-message", "-p", "-t", t.session, "#{pane_id}"]);
    const pauses: string[] = [];
    client.on((e) => {
      if (e.type === "pause" && e.requested === true) pauses.push(e.paneId);
    });
    for (const pane of panes) await nextEvent(client, isType("output", pane), 10_000);
    // Behind: tmux queues the floods' output for it while its pipe is full.
    proc?.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    proc?.stdout.resume();
    await client.close();
    expect(pauses.sort()).toEqual([main, ...panes].sort());
    expect(await t.run(["display-message", "-p", "alive"])).toEqual(["alive"]);
    // Its process has ended; tmux lets go of the client on its next turn.
    await waitFor(async () => !(await t.run(["list-clients", "-F", "#{client_control_mode}"])).includes("1"), 10_000, "the client to go");
  });

  it("refuses to attach to a session that does not exist, naming it", async () => {
    const t = await startServer();
    await expect(ControlClient.start({ server: t.server, session: "nosuch" })).rejects.toMatchObject({ kind: "tmux-exited", message: expect.stringContaining("nosuch") });
  });

  it("reports a missing tmux binary with an install hint", async () => {
    await expect(ControlClient.start({ server: new TmuxServer({ tmux: "/nonexistent/tmux" }), session: "main" })).rejects.toMatchObject({ kind: "tmux-missing" });
    await expect(new TmuxServer({ tmux: "/nonexistent/tmux" }).run(["-V"])).rejects.toMatchObject({ kind: "tmux-missing" });
  });
});

describe("TmuxServer one-shot commands", () => {
  it("identifies the server generation and lists panes with their geometry", async () => {
    const t = await startServer({ cols: 100, rows: 30 });
    const generation = await t.server.serverGeneration();
    expect(generation.pid).toBeGreaterThan(0);
    expect(generation.startTime).toBeGreaterThan(1_600_000_000);
    await t.run(["select-pane", "-t", "%0", "-T", "tab\there\nnewline"]);
    const panes = await t.server.listPanes();
    expect(panes).toHaveLength(1);
    expect(panes[0]).toMatchObject({ paneId: "%0", sessionName: "main", cols: 100, rows: 30, active: true, dead: false, alternate: false });
  });

  it("says no-server when nothing runs on the socket, and no server is left behind after kill", async () => {
    const t = await startServer();
    await t.kill();
    await expect(t.server.listPanes()).rejects.toMatchObject({ kind: "no-server" });
    // The command that starts it names this server: a bare `tmux new-session` starts the default one.
    await expect(t.server.listPanes()).rejects.toThrow(`start one with "tmux ${t.server.baseArgs().join(" ")} new-session -d"`);
  });
});

describe("SessionRegistry", () => {
  it("starts one client per session, shares it, and closes it when the last holder releases", async () => {
    const t = await startServer();
    await t.run(["new-session", "-d", "-s", "other"]);
    const registry = new SessionRegistry({ server: t.server });
    const controlClients = async (): Promise<number> => (await t.run(["list-clients", "-F", "#{client_control_mode}"])).filter((l) => l === "1").length;
    const a = await registry.acquire("main");
    const b = await registry.acquire("main");
    const c = await registry.acquire("other");
    expect(a.client).toBe(b.client);
    expect(c.client).not.toBe(a.client);
    expect(await controlClients()).toBe(2);
    a.release();
    a.release();
    expect(a.client.closed).toBe(false);
    b.release();
    await a.client.exited;
    c.release();
    await c.client.exited;
    await waitFor(async () => (await controlClients()) === 0, 5000, "no control clients");
    const again = await registry.acquire("main");
    expect(again.client).not.toBe(a.client);
    await registry.closeAll();
  });

  it("drops a client whose tmux exited, so the next acquire starts a fresh one", async () => {
    const t = await startServer();
    const registry = new SessionRegistry({ server: t.server });
    const first = await registry.acquire("main");
    await t.run(["detach-client", "-s", "main"]);
    await first.client.exited;
    await waitFor(() => registry.sessions.length === 0, 10_000, "the registry to forget the client");
    const second = await registry.acquire("main");
    expect(second.client).not.toBe(first.client);
    expect(await second.client.command(["display-message", "-p", "alive"])).toEqual(["alive"]);
    await registry.closeAll();
  });
});
