// The hub against a real, private tmux server: seeding, deltas, alternate screen, mid-stream watch.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Delta } from "../../../src/observe/read/delta.js";
import { Hub } from "../../../src/watch/hub.js";
import { retainedBytes } from "../../support/heap.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";

const hubs: Hub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await killAllServers();
});

function hubFor(test: TestServer, options: Partial<ConstructorParameters<typeof Hub>[0]> = {}): Hub {
  const hub = new Hub({ server: test.server, key: randomBytes(32), ...options });
  hubs.push(hub);
  return hub;
}

async function paneOf(test: TestServer): Promise<string> {
  const [pane] = await test.run(["display-message", "-p", "-t", test.session, "#{pane_id}"]);
  return pane ?? "";
}

async function screenOf(test: TestServer, pane: string): Promise<string[]> {
  const lines = await test.run(["capture-pane", "-p", "-t", pane]);
  return lines;
}

/** Reads with waitMs until `done(delta)`; returns every delta. */
async function readUntil(hub: Hub, start: Delta, done: (delta: Delta) => boolean, limit = 200): Promise<Delta[]> {
  const deltas: Delta[] = [];
  let cursor = start.cursor;
  for (let i = 0; i < limit; i++) {
    const delta = await hub.capture({ cursor, waitMs: 5000 });
    deltas.push(delta);
    cursor = delta.cursor;
    if (done(delta)) return deltas;
  }
  throw new Error("readUntil: condition never held");
}

describe("Hub", () => {
  it("the first read of a pane that already has content shows tmux's screen", async () => {
    const test = await startServer({ cols: 60, rows: 8, command: "printf 'one\\ntwo\\n\\033[31mred\\033[0m three'; sleep 60" });
    const pane = await paneOf(test);
    await waitFor(async () => (await screenOf(test, pane)).some((l) => l.includes("three")));
    const hub = hubFor(test);
    const first = await hub.capture({ paneId: pane });
    expect(first.first).toBe(true);
    expect(first.rows.map((r) => r.text)).toEqual(["one", "two", "red three"]);
    expect(first.screen).toMatchObject({ cols: 60, rows: 8, cursorX: 9, cursorY: 2, alternate: false });
  });

  it("a progress bar is one changed row, a scrolling log its new lines", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const hub = hubFor(test);
    const start = await hub.capture({ paneId: pane });
    await test.run(["send-keys", "-t", pane, "-l", "clear; for i in $(seq 1 50); do printf '\\r%d%%' $i; done; echo; echo done\n"]);
    const bar = await readUntil(hub, start, (d) => d.rows.some((r) => r.text === "done"));
    const barRows = new Map(bar.flatMap((d) => d.rows).map((r) => [r.line, r.text]));
    expect([...barRows.values()].filter((t) => /%$|^done$/.test(t))).toEqual(["50%", "done"]);
    const before = bar[bar.length - 1] as Delta;
    await test.run(["send-keys", "-t", pane, "-l", "seq 1 30\n"]);
    const log = await readUntil(hub, before, (d) => d.rows.some((r) => r.text === "30"));
    const logRows = log.flatMap((d) => d.rows).filter((r) => /^\d+$/.test(r.text));
    expect(logRows.map((r) => r.text)).toEqual(Array.from({ length: 30 }, (_, i) => String(i + 1)));
    // Absolute line numbers: consecutive, so the log's lines are reported once each, never the screen again.
    const lines = logRows.map((r) => r.line);
    expect(lines).toEqual(Array.from({ length: 30 }, (_, i) => (lines[0] ?? 0) + i));
  });

  it("a pane whose process is replaced answers an old cursor as missed, respawned", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "echo first; sleep 60" });
    const pane = await paneOf(test);
    const hub = hubFor(test);
    const old = await hub.capture({ paneId: pane });
    await test.run(["respawn-pane", "-k", "-t", pane, "echo second; sleep 60"]);
    await waitFor(async () => (await screenOf(test, pane)).includes("second"));
    // A read answers from output tmux has confirmed as the watched process's; the respawn is known
    // once tmux answers the confirmation (or its subscription says so): a waiting read sees it then.
    const delta = await hub.capture({ cursor: old.cursor, waitMs: 10_000 });
    expect(delta).toMatchObject({ missed: true, reason: "respawned", first: true });
    expect(delta.rows.map((r) => r.text)).toContain("second");
  });

  it("vim opening is flagged alternate with the whole screen, and the screen equals tmux's", async () => {
    const test = await startServer({ cols: 50, rows: 10, command: "sh", env: { PS1: "$ ", TERM: "xterm-256color" } });
    const pane = await paneOf(test);
    const hub = hubFor(test);
    const start = await hub.capture({ paneId: pane });
    await test.run(["send-keys", "-t", pane, "-l", "vim -u NONE -N /dev/null\n"]);
    const deltas = await readUntil(hub, start, (d) => d.screen.alternate && d.rows.some((r) => r.text.startsWith("~")));
    const last = deltas[deltas.length - 1];
    expect(last?.screen.alternate).toBe(true);
    await waitFor(async () => {
      const tmux = await screenOf(test, pane);
      const ours = (await (await hub.observer(pane)).screenText()).rows;
      return JSON.stringify(tmux.map((l) => l.trimEnd())) === JSON.stringify(ours);
    }, 5000, "rendered rows equal to capture-pane -p");
  });

  it("watching mid-stream sees every numbered line exactly once", async () => {
    const test = await startServer({ cols: 40, rows: 10, command: "sh" });
    const pane = await paneOf(test);
    // Numbers until told to stop: on a loaded machine a fixed count could end before the watch starts.
    const stop = join(mkdtempSync(join(tmpdir(), "panescope-test-")), "stop");
    await test.run(["send-keys", "-t", pane, "-l", `i=0; while [ ! -e ${stop} ]; do i=$((i+1)); echo $i; done; echo END\n`]);
    await waitFor(async () => (await screenOf(test, pane)).some((l) => /^\d{3,}$/.test(l)), 10_000, "numbers on screen");
    const hub = hubFor(test);
    const first = await hub.capture({ paneId: pane });
    // Some output after the seed, then the end.
    const flowing = await readUntil(hub, first, (d) => /^\d+$/m.test(d.raw));
    writeFileSync(stop, "");
    const deltas = [...flowing, ...(await readUntil(hub, flowing.at(-1) ?? first, (d) => d.raw.includes("END"), 5000))];
    rmSync(dirname(stop), { recursive: true, force: true });
    expect(deltas.every((d) => !d.missed)).toBe(true);
    const text = first.rows.map((r) => r.text).join("\n") + deltas.map((d) => d.raw).join("");
    const numbers = text.split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
    const firstNumber = numbers[0] ?? 0;
    const lastNumber = numbers.at(-1) ?? 0;
    expect(firstNumber).toBeGreaterThan(1);
    expect(numbers).toEqual(Array.from({ length: lastNumber - firstNumber + 1 }, (_, i) => firstNumber + i));
  });

  it("resizing mid-stream loses no raw output, flags nothing, and ends with tmux's screen", async () => {
    const test = await startServer({ cols: 60, rows: 10, command: "sh" });
    const pane = await paneOf(test);
    const hub = hubFor(test);
    const first = await hub.capture({ paneId: pane });
    await test.run(["send-keys", "-t", pane, "-l", "clear; i=0; while [ $i -lt 20000 ]; do i=$((i+1)); echo $i; done; echo E''ND\n"]);
    const sizes = [[50, 8], [70, 12], [40, 6], [60, 10]] as const;
    const resizing = (async () => {
      for (const [cols, rows] of sizes) await test.run(["resize-window", "-t", pane, "-x", String(cols), "-y", String(rows)]);
    })();
    const deltas = await readUntil(hub, first, (d) => /^END$/m.test(d.raw), 5000);
    await resizing;
    expect(deltas.filter((d) => d.missed)).toEqual([]);
    const numbers = deltas.map((d) => d.raw).join("").split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
    const gaps = numbers.flatMap((n, i) => (i > 0 && n !== (numbers[i - 1] ?? 0) + 1 ? [`${numbers[i - 1]}→${n}`] : []));
    expect(gaps).toEqual([]);
    expect(numbers).toEqual(Array.from({ length: 20000 }, (_, i) => i + 1));
    await waitFor(async () => {
      const tmux = (await screenOf(test, pane)).map((l) => l.trimEnd());
      const ours = (await (await hub.observer(pane)).screenText()).rows;
      return JSON.stringify(tmux) === JSON.stringify(ours);
    }, 5000, "rendered rows equal to capture-pane -p after the resizes");
  });

  it("watching a pane already in vim seeds the alternate screen, and the saved normal screen comes back on :q", async () => {
    const test = await startServer({ cols: 50, rows: 8, command: "sh", env: { PS1: "$ ", TERM: "xterm-256color" } });
    const pane = await paneOf(test);
    // A styled run of trailing spaces (red background) must survive seeding too.
    await test.run(["send-keys", "-t", pane, "-l", "printf 'before vim \\033[41m   \\033[0m\\n'; vim -u NONE -N -n -i NONE\n"]);
    await waitFor(async () => (await screenOf(test, pane)).some((l) => l.startsWith("~")), 10_000, "vim");
    const hub = hubFor(test);
    const first = await hub.capture({ paneId: pane });
    expect(first.screen.alternate).toBe(true);
    const tmuxAlt = (await screenOf(test, pane)).map((l) => l.trimEnd());
    expect((await (await hub.observer(pane)).screenText()).rows).toEqual(tmuxAlt);
    await test.run(["send-keys", "-t", pane, "-l", ":q\n"]);
    const deltas = await readUntil(hub, first, (d) => !d.screen.alternate);
    // Failed once on 3.2a in a CI matrix (8 rows, none of them "before vim"), never here: say what
    // each answer and tmux showed, should it fail again.
    const seen = async (): Promise<string> =>
      JSON.stringify({ deltas: deltas.map(({ rows, screen, missed, reason, raw }) => ({ rows, screen, missed, reason, raw })), tmux: await screenOf(test, pane) });
    const lastRows = deltas.at(-1)?.rows.map((r) => r.text) ?? [];
    expect(lastRows, lastRows.includes("before vim") ? "" : await seen()).toContain("before vim");
    await waitFor(async () => {
      const tmux = (await screenOf(test, pane)).map((l) => l.trimEnd());
      return JSON.stringify(tmux) === JSON.stringify((await (await hub.observer(pane)).screenText()).rows);
    }, 5000, "the normal screen equal to tmux's after :q");
    const snapshot = await (await hub.observer(pane)).snapshot();
    const row = snapshot.lines.findIndex((l) => l.startsWith("before vim"));
    expect(snapshot.styles).toContainEqual({ row, start: 11, end: 14, bg: { kind: "palette", index: 1 } });
  });

  it("over its cap the hub retires the least recently read pane; that pane's old cursor is answered as evicted", async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh" });
    await test.run(["split-window", "-t", test.session, "sh"]);
    const [a = "", b = ""] = await test.run(["list-panes", "-t", test.session, "-F", "#{pane_id}"]);
    // recentMs 0: the cap's order alone (a pane read within recentMs is not retired: hub.test.ts).
    const hub = hubFor(test, { maxPanes: 1, recentMs: 0 });
    const readA = await hub.capture({ paneId: a });
    await hub.capture({ paneId: b });
    const again = await hub.capture({ cursor: readA.cursor });
    expect(again).toMatchObject({ paneId: a, first: true, missed: true, reason: "evicted" });
    const next = await hub.capture({ cursor: again.cursor });
    expect(next).toMatchObject({ first: false, missed: false });
  });

  it("a pane retired over the cap and then killed answers its old cursor as closed, with what it missed flagged, not as an unknown pane", async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh" });
    await test.run(["split-window", "-t", test.session, "sh"]);
    const [a = "", b = ""] = await test.run(["list-panes", "-t", test.session, "-F", "#{pane_id}"]);
    const hub = hubFor(test, { maxPanes: 1, recentMs: 0 });
    const readA = await hub.capture({ paneId: a });
    await hub.capture({ paneId: b }); // a is retired over the cap
    expect(hub.watching.map((w) => w.paneId)).toEqual([b]);
    await test.run(["kill-pane", "-t", a]);
    // A wait ends at once: the pane is closed.
    const gone = await hub.capture({ cursor: readA.cursor, waitMs: 60_000 });
    expect(gone).toMatchObject({ paneId: a, closed: true, missed: true, reason: "evicted", first: true });
    // Its cursor goes on: nothing new, still closed, nothing missed twice.
    const again = await hub.capture({ cursor: gone.cursor });
    expect(again).toMatchObject({ paneId: a, closed: true, missed: false, first: false, raw: "" });
    // Read by its id, as a watched pane that was killed is: closed too, and (its last screen never
    // seen, the blank one shown is not the pane's) missed with why.
    expect(await hub.capture({ paneId: a })).toMatchObject({ paneId: a, closed: true, missed: true, reason: "evicted", first: true });
    // A pane id never watched is still an unknown pane.
    await expect(hub.capture({ paneId: "%999" })).rejects.toThrow(/no pane %999/);
  });

  it("a pane that closed, was retired, and is gone from tmux answers its last cursor as closed with nothing missed, and an older one as evicted", async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh" });
    await test.run(["split-window", "-t", test.session, "sh"]);
    const [a = "", b = ""] = await test.run(["list-panes", "-t", test.session, "-F", "#{pane_id}"]);
    const hub = hubFor(test, { maxPanes: 1, recentMs: 0 });
    const first = await hub.capture({ paneId: a });
    await test.run(["send-keys", "-t", a, "echo one", "Enter"]);
    const [echoed] = (await readUntil(hub, first, (delta) => /^one$/m.test(delta.raw))).slice(-1);
    await test.run(["kill-pane", "-t", a]);
    const [closed] = (await readUntil(hub, echoed ?? first, (delta) => delta.closed)).slice(-1);
    await hub.capture({ paneId: b }); // a, closed, is retired over the cap
    expect(hub.watching.map((w) => w.paneId)).toEqual([b]);
    expect(await hub.capture({ cursor: closed?.cursor ?? "" })).toMatchObject({ paneId: a, closed: true, missed: false });
    expect(await hub.capture({ cursor: first.cursor })).toMatchObject({ paneId: a, closed: true, missed: true, reason: "evicted" });
  });

  it("a pane retired over the cap is let go, though its session's control client lives on for another pane", async () => {
    const test = await startServer({ cols: 40, rows: 5, command: "sh" });
    await test.run(["split-window", "-t", test.session, "sh"]);
    const [a = "", b = ""] = await test.run(["list-panes", "-t", test.session, "-F", "#{pane_id}"]);
    const hub = hubFor(test, { maxPanes: 1, recentMs: 0 });
    // In a function: the test holds only a weak reference to a's observer (its screen and ring).
    const watchA = async (): Promise<WeakRef<object>> => {
      await hub.capture({ paneId: a });
      return new WeakRef(await hub.observer(a));
    };
    const observerA = await watchA();
    await hub.capture({ paneId: b }); // a is retired; the session's client stays, watching b
    expect(hub.watching.map((w) => w.paneId)).toEqual([b]);
    await new Promise((resolve) => setImmediate(resolve));
    retainedBytes(); // a full collection
    // Held before by its reaction to the client's exit (until the client exited) and, as the first
    // watch started, by the hub's sweep timer.
    expect(observerA.deref()).toBeUndefined();
  });

  it("a pane being recorded (its observer tapped) is not retired over the cap: the next least recently read one is", async () => {
    const test = await startServer({ cols: 80, rows: 24, command: "sh" });
    await test.run(["split-window", "-t", test.session, "sh"]);
    await test.run(["split-window", "-t", test.session, "sh"]);
    const [recorded = "", other = "", read = ""] = await test.run(["list-panes", "-t", test.session, "-F", "#{pane_id}"]);
    const hub = hubFor(test, { maxPanes: 2, recentMs: 0 });
    const tapped = await hub.observer(recorded);
    const untap = tapped.tap({});
    const untapped = await hub.observer(other);
    // A third pane: over the cap of two, the least recently read pane not in use is retired.
    await hub.capture({ paneId: read });
    expect(tapped.closed).toBe(false);
    expect(untapped.closed).toBe(true);
    untap();
  });

  it("an unknown pane is an error that says how to find panes", async () => {
    const test = await startServer();
    const hub = hubFor(test);
    await expect(hub.capture({ paneId: "%999" })).rejects.toThrow(/list_panes/);
  });

  it("a cursor of another Hub in this process is answered as restarted, with the screen, never as its own", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const key = randomBytes(32);
    const a = hubFor(test, { key });
    let seen = await a.capture({ paneId: pane });
    await test.run(["send-keys", "-t", pane, "-l", "echo AA$((1+1))\n"]);
    seen = (await readUntil(a, seen, (d) => d.raw.includes("AA2\n"))).at(-1) as Delta;
    await a.close();
    // The same key (one state directory), another Hub: its watch numbers its output from 0 again.
    const b = hubFor(test, { key });
    const mine = await b.capture({ paneId: pane });
    await test.run(["send-keys", "-t", pane, "-l", "echo BB$((2+2))\n"]);
    await readUntil(b, mine, (d) => d.raw.includes("BB4\n"));
    const other = await b.capture({ cursor: seen.cursor });
    expect(other).toMatchObject({ first: true, missed: true, reason: "restarted" });
    expect(other.rows.map((r) => r.text)).toContain("BB4");
  });

  it("a closed Hub answers no read (it would watch again and keep the process alive); a waitMs not a number is refused", async () => {
    const test = await startServer();
    const hub = hubFor(test);
    const pane = await paneOf(test);
    const first = await hub.capture({ paneId: pane });
    await expect(hub.capture({ cursor: first.cursor, waitMs: "500" as unknown as number })).rejects.toThrow(/waitMs must be a number of ms, 0 or more, got "500"/);
    // A wait longer than a timer takes waits (no warning a millisecond, no spin) until its signal ends it.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const waited = await hub.capture({ cursor: first.cursor, waitMs: Infinity, signal: AbortSignal.timeout(300) });
      expect(waited.rawBytes).toBe(0);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("TimeoutOverflowWarning");
    await hub.close();
    expect(hub.watching).toEqual([]);
    await expect(hub.capture({ cursor: first.cursor })).rejects.toThrow(/this Hub was closed: make a new Hub/);
    expect(hub.watching).toEqual([]);
  });

  it("a read with a cursor of a watched pane asks tmux nothing, not even its socket (a stopped tmux cannot hold it)", async () => {
    const test = await startServer({ cols: 40, rows: 6, command: "sh", env: { PS1: "$ " } });
    const pane = await paneOf(test);
    const hub = hubFor(test);
    const first = await hub.capture({ paneId: pane });
    const asked: string[] = [];
    const server = test.server;
    const [run, display] = [server.run.bind(server), server.display.bind(server)];
    server.run = (args, options) => (asked.push(args.join(" ")), run(args, options));
    server.display = (target, format, options) => (asked.push(`display-message ${format.text}`), display(target, format, options));
    const again = await hub.capture({ cursor: first.cursor });
    expect(again).toMatchObject({ missed: false, rows: [] });
    expect(asked).toEqual([]);
  });
});
