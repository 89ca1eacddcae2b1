// The seed state machine through its seam: a client that answers the seed recipe with recorded
// replies, an observer that records what it is told. Where each %output goes before, during and
// after a capture; which captures a pause, a resize and a respawn lead to; and giving up on a
// capture that keeps timing out without leaving the pane paused.
import { describe, expect, it } from "vitest";
import { PanescopeError } from "../../../src/errors.js";
import type { PaneObserver } from "../../../src/observe/pane/observer.js";
import { PROBE } from "../../../src/watch/seed/probe.js";
import { MAX_RESEEDS, Seeder, type SeedClient } from "../../../src/watch/seed/seeder.js";
import { tmuxPrints } from "../../support/tmux-output.js";

const ZEROS = Object.fromEntries(["cursor_x", "cursor_y", "alternate_on", "scroll_region_upper", "scroll_region_lower", "history_size", "pane_dead", "pid", "start_time", "alternate_saved_x", "alternate_saved_y"].map((name) => [name, "0"]));

/** The replies to seedCommands: pause, saved screen, capture, display (pane `%1` run by `pid`), continue. */
const replies = (pid: number): string[][] => [[], [], ["$ "], tmuxPrints(PROBE.text, { ...ZEROS, pane_id: "%1", pane_pid: String(pid), pane_width: "80", pane_height: "24" }, "3.4"), []];

const text = (data: Uint8Array): string => Buffer.from(data).toString();

function setup(answers: Array<number | Error | Promise<number>> = []): {
  seeder: Seeder;
  log: string[];
  sent: string[][];
  seed(): void;
  disposed: { value: boolean };
} {
  const log: string[] = [];
  const sent: string[][] = [];
  const disposed = { value: false };
  let observer: PaneObserver | undefined;
  const client: SeedClient = {
    closed: false,
    command: (argv) => (sent.push([...argv]), Promise.resolve([])),
    commands: () => {
      const next = answers.shift() ?? 100;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next).then(replies);
    },
  };
  const seeder = new Seeder({
    paneId: "%1",
    client: () => client,
    history: 1000,
    observer: () => observer,
    takeUnconfirmed: () => [Buffer.from("unconfirmed")],
    confirm: (data) => void log.push(`confirm ${text(data)}`),
    took: (probe) => void log.push(`took ${probe.panePid}`),
    respawned: () => void log.push("respawned"),
    check: () => (log.push("check"), Promise.resolve()),
    disposed: () => disposed.value,
  });
  const fake = {
    identity: { panePid: 100 },
    appendRaw: (data: Uint8Array) => void log.push(`raw ${text(data)}`),
    reseed: (_state: unknown, reason: string) => void log.push(`reseed ${reason}`),
    resync: () => void log.push("resync"),
    addBreak: (reason: string) => void log.push(`break ${reason}`),
  };
  return { seeder, log, sent, seed: () => (observer = fake as unknown as PaneObserver), disposed };
}

describe("Seeder", () => {
  it("drops output before our %continue, holds what follows until the screen is in place, then hands it on in order", async () => {
    const { seeder, log, seed } = setup();
    const first = seeder.first();
    seeder.output(Buffer.from("inside the capture"));
    seeder.continued();
    seeder.output(Buffer.from("a"));
    seeder.output(Buffer.from("b"));
    expect((await first).panePid).toBe(100);
    expect(log).toEqual([]);
    seed();
    seeder.goLive();
    seeder.output(Buffer.from("c"));
    expect(log).toEqual(["confirm a", "confirm b", "confirm c"]);
  });

  it("a pause tmux sends during the first seed is answered after it, with a flagged re-seed", async () => {
    const { seeder, log, seed } = setup();
    const first = seeder.first();
    seeder.paused();
    await first;
    seed();
    seeder.goLive();
    seeder.afterFirst();
    await settle();
    expect(log).toEqual(["reseed paused", "took 100"]);
  });

  it("a resync keeps the unconfirmed and in-capture output as raw (nothing was lost) and flags nothing", async () => {
    const { seeder, log, seed } = setup();
    seed();
    const retake = seeder.retake(undefined);
    seeder.output(Buffer.from("during"));
    await retake;
    expect(log).toEqual(["raw unconfirmed", "raw during", "resync", "took 100"]);
    expect(seeder.mode).toBe("live");
  });

  it("requests during a capture make one more capture, flagged if any of them lost output", async () => {
    const { seeder, log, seed } = setup();
    seed();
    const running = seeder.retake(undefined);
    void seeder.retake(undefined);
    void seeder.retake("overflow");
    void seeder.retake(undefined);
    await running;
    expect(log.filter((line) => line === "resync" || line.startsWith("reseed"))).toEqual(["resync", "reseed overflow"]);
  });

  it("a move to another client while a capture is out: what the new client sends before its own capture is dropped, not handed on after the old one", async () => {
    let answer: (pid: number) => void = () => undefined;
    const { seeder, log, seed } = setup([100, new Promise<number>((resolve) => (answer = resolve)), 100]);
    await seeder.first();
    seed();
    seeder.goLive();
    const paused = seeder.retake("paused");
    seeder.continued(); // the old client's %continue: its output would be held from here
    seeder.clientChanged();
    seeder.output(Buffer.from("old bytes the new client sends first"));
    void seeder.retake("moved");
    answer(100);
    await paused;
    expect(log).toEqual(["reseed paused", "took 100", "reseed moved", "took 100"]);
    seeder.output(Buffer.from("after"));
    expect(log.at(-1)).toBe("confirm after");
  });

  it("a capture that finds another process reports a respawn and applies nothing", async () => {
    const { seeder, log, seed } = setup([200]);
    seed();
    await seeder.retake("paused");
    expect(log).toEqual(["respawned"]);
  });

  it(`gives up after ${MAX_RESEEDS} timed-out captures: resumes the pane, flags the gap and asks how the pane is`, async () => {
    const timeouts = Array.from({ length: MAX_RESEEDS }, () => new PanescopeError("timeout", "slow"));
    const { seeder, log, sent, seed } = setup(timeouts);
    seed();
    await seeder.retake("paused");
    expect(sent).toEqual([["refresh-client", "-A", "%1:continue"]]);
    expect(log).toEqual(["break paused", "check"]);
  });

  it("stops taking captures once the watch ended", async () => {
    const { seeder, log, seed, disposed } = setup();
    seed();
    disposed.value = true;
    await seeder.retake("paused");
    expect(log).toEqual([]);
  });
});

/** Lets queued promise callbacks run (the re-seed after the first seed is started, not awaited). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
