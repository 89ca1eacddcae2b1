// Fair feeding: a screen parses little at a time, keeps order, never loses a callback, and a turn
// of the event loop ends after TURN_MS (by the feeder's clock) however many screens are busy.
import { describe, expect, it, vi } from "vitest";
import { Screen } from "../../../src/observe/emulator/screen.js";
import { SLICE_BYTES } from "../../../src/observe/emulator/scheduler.js";
import { AT_ONCE_BYTES, TURN_MS } from "../../../src/observe/emulator/feeder.js";

function parsedSizes(screen: Screen): number[] {
  const writer = (screen as unknown as { writer: { writeSync(data: { length: number }): void } }).writer;
  const original = writer.writeSync.bind(writer);
  const sizes: number[] = [];
  writer.writeSync = (data) => {
    sizes.push(data.length);
    original(data);
  };
  return sizes;
}

describe("feeding the emulator", () => {
  it("parses at most ~32 KiB of one screen per turn (beyond the parse-now allowance), yet applies everything in order", async () => {
    const screen = new Screen({ cols: 40, rows: 5, scrollback: 10 });
    const sizes = parsedSizes(screen);
    const turns: number[] = [];
    const order: number[] = [];
    // ~1 KB a write: an invisible SGR run, then one line of text.
    for (let i = 0; i < 1000; i++) {
      screen.write("\x1b[0m".repeat(240) + `line ${i}\r\n`, () => {
        order.push(i);
        turns.push(sizes.length);
      });
    }
    // Count what each turn parsed: a setImmediate queued now runs after the feeder's first turn.
    const perTurn: number[] = [];
    let before = 0;
    while (screen.busy) {
      await new Promise((resolve) => setImmediate(resolve));
      const parsed = sizes.slice(before).reduce((a, b) => a + b, 0);
      before = sizes.length;
      perTurn.push(parsed);
    }
    expect(order).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    // A turn: one slice, plus what arrived while the turn's parse-now allowance lasted.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(SLICE_BYTES + AT_ONCE_BYTES + 1000);
    expect(perTurn.length).toBeGreaterThan(1);
    expect(screen.rowText(3)).toBe("line 999");
    expect(screen.backlog).toBe(0);
  });

  it("a little output on an idle screen is parsed at once; a flood waits for the turns", async () => {
    await new Promise((resolve) => setImmediate(resolve)); // a fresh allowance for this turn
    const screen = new Screen({ cols: 20, rows: 3 });
    let applied = false;
    screen.write("hello", () => (applied = true));
    expect(applied).toBe(true);
    expect(screen.rowText(0)).toBe("hello");
    // More than a turn's allowance: queued, parsed by pump() (the feeder's or a reader's).
    let flooded = false;
    screen.write("x".repeat(AT_ONCE_BYTES + 1), () => (flooded = true));
    expect(flooded).toBe(false);
    expect(screen.busy).toBe(true);
    expect(screen.pump()).toBe(false);
    expect(flooded).toBe(true);
  });

  it("one turn of many busy screens ends after TURN_MS, and the rest go first next turn", async () => {
    const screens = Array.from({ length: 40 }, () => new Screen({ cols: 80, rows: 24, scrollback: 100 }));
    const firstParsed: number[] = [];
    const chunk = Array.from({ length: 3000 }, (_, i) => `${i}`).join("\r\n");
    // The feeder's clock, made of parse work: every slice a screen parses takes STEP_MS.
    const STEP_MS = 3;
    let clock = 0;
    const now = vi.spyOn(performance, "now").mockImplementation(() => clock);
    try {
      screens.forEach((screen, n) => {
        const pump = screen.pump.bind(screen);
        screen.pump = (bytes) => {
          clock += STEP_MS;
          return pump(bytes);
        };
        for (let i = 0; i < 4; i++) screen.write(chunk, i === 0 ? () => firstParsed.push(n) : undefined);
      });
      await new Promise((resolve) => setImmediate(resolve));
      // The first turn stopped once TURN_MS of parsing had gone by: the screens it reached in that time.
      expect(firstParsed).toEqual(Array.from({ length: Math.ceil(TURN_MS / STEP_MS) }, (_, n) => n));
      while (screens.some((s) => s.busy)) await new Promise((resolve) => setImmediate(resolve));
      // …and every screen's first slice came before any screen's second: round robin, in order.
      expect(firstParsed).toEqual(screens.map((_, n) => n));
      for (const screen of screens) expect(screen.rowText(23)).toBe("2999");
    } finally {
      now.mockRestore();
    }
  });
});
