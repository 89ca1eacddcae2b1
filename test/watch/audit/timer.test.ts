// The replica audit's schedule: only at rest, at most every AUDIT_INTERVAL_MS unless a resize asks,
// once more after a heal to see it converge, and never again for a heal that does not.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUDIT_INTERVAL_MS, AuditTimer, QUIET_MS, type AuditResult } from "../../../src/watch/audit/timer.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function auditor(results: AuditResult[]) {
  let calls = 0;
  const audit = new AuditTimer({ audit: async () => results[Math.min(calls++, results.length - 1)] ?? "agree" });
  return { audit, calls: () => calls };
}

describe("AuditTimer", () => {
  it("audits once the pane has rested after output, and not again until it prints", async () => {
    const { audit, calls } = auditor(["agree"]);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(1);
    expect(audit.stats).toEqual({ audits: 1, heals: 0, unconverged: 0 });
  });

  it("costs nothing while a pane floods, and one capture when it stops", async () => {
    const { audit, calls } = auditor(["agree"]);
    for (let i = 0; i < 1000; i++) {
      audit.onOutput();
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(calls()).toBe(0);
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls()).toBe(1);
  });

  it("a pane printing every 200 ms is audited at most once per interval", async () => {
    const { audit, calls } = auditor(["agree"]);
    for (let t = 0; t < 60_000; t += 200) {
      audit.onOutput();
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(calls()).toBeLessThanOrEqual(60_000 / AUDIT_INTERVAL_MS + 1);
    expect(calls()).toBeGreaterThan(10);
  });

  it("a reader that saw the pane quiet has it audited at once, not an interval later, and only when it printed", async () => {
    const { audit, calls } = auditor(["agree"]);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls()).toBe(1);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS / 2); // quiet as the reader counts it, not yet as the timer does
    await audit.atRest();
    expect(calls()).toBe(2);
    await audit.atRest();
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(2);
  });

  it("a resize is audited at the next rest, without waiting for the interval", async () => {
    const { audit, calls } = auditor(["agree"]);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    audit.schedule();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls()).toBe(2);
  });

  it("a resize the alternate screen hid is audited at the first rest back on the normal screen, not an interval later", async () => {
    let alternate = true;
    let calls = 0;
    const audit = new AuditTimer({ audit: async () => (calls++, "agree"), alternate: () => alternate });
    audit.schedule();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toBe(1);
    // Still in the alternate screen: output waits for the interval as any other.
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(AUDIT_INTERVAL_MS);
    expect(calls).toBe(2);
    alternate = false;
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toBe(3);
    // Seen once on the normal screen: output is back to the interval.
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls).toBe(3);
  });

  it("checks a heal once more, and gives up on one that does not converge until the pane prints", async () => {
    const { audit, calls } = auditor(["healed", "healed", "agree"]);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS * 4);
    expect(calls()).toBe(2);
    expect(audit.stats).toEqual({ audits: 2, heals: 2, unconverged: 1 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(2);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(AUDIT_INTERVAL_MS + QUIET_MS);
    expect(calls()).toBe(3);
  });

  it("looks again at a later rest when output came while it looked", async () => {
    const { audit, calls } = auditor(["busy", "agree"]);
    audit.onOutput();
    await vi.advanceTimersByTimeAsync(QUIET_MS + 1);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(AUDIT_INTERVAL_MS + QUIET_MS);
    expect(calls()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls()).toBe(2);
  });
});
