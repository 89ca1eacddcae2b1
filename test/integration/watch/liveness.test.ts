// The read path asks tmux nothing: output reaches a pane's observer once it is confirmed that the
// pane still runs the watched process: from /proc (watch/pane-process.ts), or by tmux through the
// watching client or (quietClient) a second one attached with `-f no-output`.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Delta } from "../../../src/observe/delta.js";
import { ControlClient, type ControlClientOptions } from "../../../src/tmux/client.js";
import { Hub } from "../../../src/watch/hub.js";
import { IGNORES_HUP, killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
const clients: ControlClient[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await killAllServers();
});

/** Every control client the hub starts, with the options it was started with. */
function recordingStart(started: { options: ControlClientOptions; client: ControlClient }[], refuseQuiet = false) {
  return async (options: ControlClientOptions): Promise<ControlClient> => {
    if (refuseQuiet && options.noOutput === true) throw new Error("no quiet client in this test");
    const client = await ControlClient.start(options);
    started.push({ options, client });
    return client;
  };
}

async function paneIn(test: TestServer, target: string): Promise<string> {
  const [pane = ""] = await test.run(["display-message", "-p", "-t", target, "#{pane_id}"]);
  return pane;
}

async function readUntil(hub: Hub, start: Delta, done: (delta: Delta) => boolean): Promise<Delta> {
  let delta = start;
  if (done(delta)) return delta;
  for (let i = 0; i < 200; i++) {
    delta = await hub.capture({ cursor: delta.cursor, waitMs: 5000 });
    if (done(delta)) return delta;
  }
  throw new Error(`readUntil: never held; last ${JSON.stringify(delta).slice(0, 300)}`);
}

describe("the quiet control client", () => {
  it("attached with -f no-output it gets no %output, and answers while another client floods", async () => {
    const test = await startServer({ command: "sh" });
    const pane = await paneIn(test, "main");
    const quiet = await ControlClient.start({ server: test.server, session: "main", noOutput: true, pauseAfterSeconds: 0 });
    const loud = await ControlClient.start({ server: test.server, session: "main" });
    clients.push(quiet, loud);
    const outputs = { quiet: 0, loud: 0 };
    quiet.on((e) => void (e.type === "output" && outputs.quiet++));
    loud.on((e) => void (e.type === "output" && outputs.loud++));
    await test.run(["send-keys", "-t", pane, "-l", "seq 1 30000; echo seq-done\n"]);
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("seq-done"), 10_000, "the flood");
    expect(await quiet.command(["display-message", "-p", "-t", pane, "#{pane_id}"])).toEqual([pane]);
    await waitFor(() => outputs.loud > 0, 5000, "output on the loud client");
    expect(outputs.quiet).toBe(0);
  });
});

/** Where output is confirmed: tmux through the watching client, tmux through a quiet client, /proc. */
const MODES = [
  { name: "through the watching client", quietClient: false, localLiveness: false },
  { name: "through a quiet client", quietClient: true, localLiveness: false },
  { name: "from /proc", quietClient: false, localLiveness: true },
] as const;

describe("reads and liveness", () => {
  for (const { name, quietClient, localLiveness } of MODES) {
    it(`reads ask tmux nothing; confirming output ${name} asks the watching client ${quietClient || localLiveness ? "nothing" : "one question per burst"}`, async () => {
      const test = await startServer({ command: "sh", env: { PS1: "$ " } });
      const pane = await paneIn(test, "main");
      const started: { options: ControlClientOptions; client: ControlClient }[] = [];
      const hub = new Hub({ server: test.server, key: randomBytes(32), startClient: recordingStart(started), quietClient, localLiveness });
      hubs.push(hub);
      const first = await hub.capture({ paneId: pane });
      const watching = started.find((s) => s.options.noOutput !== true)?.client;
      if (!watching) throw new Error("no watching client started");
      if (quietClient) await waitFor(() => started.some((s) => s.options.noOutput === true), 5000, "the quiet client");
      await test.run(["send-keys", "-t", pane, "-l", "echo confirmed-output\n"]);
      const seen = await readUntil(hub, first, (d) => d.rows.some((r) => r.text === "confirmed-output"));
      const sent: string[] = [];
      const commands = watching.commands.bind(watching);
      watching.commands = (argvs, options) => {
        const batch = argvs.map((a) => a[0]).join(" ; ");
        // Not counted: the replica audit's look (capture-pane ; … ; display-message, watch/probe.ts),
        // which the pane's rest after each echo sets off 150 ms later, whenever the machine gets there.
        if (!batch.startsWith("capture-pane ; ")) sent.push(batch);
        return commands(argvs, options);
      };
      let cursor = seen.cursor;
      for (let i = 0; i < 20; i++) cursor = (await hub.capture({ cursor })).cursor;
      expect(sent).toEqual([]);
      const waiting = hub.capture({ cursor, waitMs: 10_000 });
      await test.run(["send-keys", "-t", pane, "-l", "echo after-the-wait\n"]);
      const woke = await readUntil(hub, await waiting, (d) => d.rows.some((r) => r.text === "after-the-wait"));
      expect(woke.missed).toBe(false);
      if (quietClient || localLiveness) expect(sent).toEqual([]);
      else expect(new Set(sent)).toEqual(new Set(["display-message"]));
    });
  }

  it("when the quiet client cannot start, output is confirmed through the watching client and respawns are still caught", async () => {
    const test = await startServer({ command: "echo old-process; exec sleep 600" });
    const pane = await paneIn(test, "main");
    await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("old-process"), 5000, "first output");
    const started: { options: ControlClientOptions; client: ControlClient }[] = [];
    const hub = new Hub({ server: test.server, key: randomBytes(32), startClient: recordingStart(started, true), warn: () => undefined, quietClient: true, localLiveness: false });
    hubs.push(hub);
    const start = await hub.capture({ paneId: pane });
    const waiting = hub.capture({ cursor: start.cursor, waitMs: 20_000 });
    await test.run(["respawn-pane", "-k", "-t", pane, "echo new-process; exec sleep 600"]);
    const delta = await waiting;
    expect(delta).toMatchObject({ missed: true, reason: "respawned", first: true });
    expect(delta.rows.map((r) => r.text)).not.toContain("old-process");
    expect(started.every((s) => s.options.noOutput !== true)).toBe(true);
  });

  const OLD_PROCESSES = [
    { old: "", command: "echo old-process; exec sleep 600", lingers: false },
    // It lives on after the respawn, on the pty tmux hung up: the /proc look must still fail.
    { old: ", the old process ignoring SIGHUP", command: IGNORES_HUP, lingers: true },
  ];
  for (const { name, quietClient, localLiveness } of MODES) {
    for (const { old, command, lingers } of OLD_PROCESSES) {
      it(`respawn-pane -k during a wait: answered as respawned, the old process's screen never as news (confirmed ${name}${old})`, async () => {
        const test = await startServer({ command });
        const pane = await paneIn(test, "main");
        await waitFor(async () => (await test.run(["capture-pane", "-p", "-t", pane])).includes("old-process"), 5000, "first output");
        const [oldPid = ""] = await test.run(["display-message", "-p", "-t", pane, "#{pane_pid}"]);
        const hub = new Hub({ server: test.server, key: randomBytes(32), quietClient, localLiveness });
        hubs.push(hub);
        try {
          const start = await hub.capture({ paneId: pane });
          const waiting = hub.capture({ cursor: start.cursor, waitMs: 20_000 });
          await test.run(["respawn-pane", "-k", "-t", pane, "clear; echo new-process; exec sleep 600"]);
          const delta = await waiting;
          expect(delta).toMatchObject({ missed: true, reason: "respawned", first: true });
          expect(delta.rows.map((r) => r.text)).not.toContain("old-process");
        } finally {
          if (lingers) process.kill(Number(oldPid), "SIGKILL");
        }
      });
    }
  }
});
