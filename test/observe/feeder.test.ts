// Fair feeding: a screen hands xterm little at a time, keeps order, and never loses a callback.
import { describe, expect, it } from "vitest";
import { Screen } from "../../src/observe/screen.js";

describe("feeding the emulator", () => {
  it("hands xterm at most ~32 KiB at a time, yet applies everything in order", async () => {
    const screen = new Screen({ cols: 40, rows: 5, scrollback: 10 });
    const term = (screen as unknown as { term: { write(data: unknown, cb: () => void): void } }).term;
    const original = term.write.bind(term);
    let outstanding = 0;
    let most = 0;
    term.write = (data: unknown, cb: () => void) => {
      const size = (data as { length: number }).length;
      outstanding += size;
      most = Math.max(most, outstanding);
      original(data, () => {
        outstanding -= size;
        cb();
      });
    };
    const order: number[] = [];
    // ~1 KB a write: an invisible SGR run, then one line of text.
    for (let i = 0; i < 1000; i++) screen.write("\x1b[0m".repeat(240) + `line ${i}\r\n`, () => order.push(i));
    await screen.flush();
    expect(order).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(most).toBeLessThanOrEqual(32 * 1024 + 1000);
    expect(screen.rowText(3)).toBe("line 999");
    expect(screen.backlog).toBe(0);
  });
});
