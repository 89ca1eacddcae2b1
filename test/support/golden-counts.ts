// Goldens in a temporary folder are not the suite's snapshots: once a test has checked them, it
// takes them out of vitest's "Snapshots … written / … failed" summary, which otherwise reports a
// test's deliberate mismatch in red in a green run. expectGolden counts there by design
// (src/golden/runner.ts, countInRunner); test/golden/runner.test.ts checks that it does.
import { expect } from "vitest";

type Counters = Record<"added" | "updated" | "unmatched" | "matched", { total(): number; delete(key: string): boolean }>;

/** vitest's snapshot counters of the running test file. */
export const counters = (): Counters => (expect.getState() as unknown as { snapshotState: Counters }).snapshotState;

/** Takes a test's goldens (the running test's by default) out of vitest's summary, once checked. */
export function forgetGoldens(test = expect.getState().currentTestName ?? ""): void {
  const key = `panescope ${test}`;
  for (const what of ["added", "updated", "unmatched", "matched"] as const) counters()[what].delete(key);
}
