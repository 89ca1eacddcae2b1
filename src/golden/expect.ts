// The library face: compare a live PaneSession's screen with a golden file from any test runner.
// A mismatch throws PanescopeError("golden") whose message holds the unified diff. Under vitest,
// written, updated and failed goldens are counted in vitest's own "Snapshots" summary, and a golden
// used by two tests of one file is an error (their screens would overwrite each other).

import { resolve } from "node:path";
import { PanescopeError } from "../errors.js";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { approve, type Approval } from "./approve.js";
import type { Mask } from "./format.js";
import { claimGolden, countInRunner, runnerTest, runnerWantsUpdate, type RunnerTest } from "./runner.js";
import type { PaneSession } from "./session.js";
import { goldenPath, isCI, isUpdate, type Decision } from "./store.js";

export interface ExpectGoldenOptions {
  /** The folder of goldens, e.g. "test/__goldens__". */
  dir: string;
  /** A sub-folder per test file or scenario: the golden is `<dir>/<suite>/<name>.golden`. */
  suite: string;
  masks?: Mask[];
  /** Pin colours and attributes too (default false). */
  colors?: boolean;
  /** Quiet period awaited before the snapshot (default 200 ms). */
  settleMs?: number;
  /** Limit for reaching that quiet period (default 5 s). */
  timeoutMs?: number;
  /** Rewrite a differing golden (default: under `vitest -u`, or with PANESCOPE_UPDATE=1). */
  update?: boolean;
  /** Never write; a missing golden fails (default: CI=true). */
  ci?: boolean;
  /**
   * Add each failing golden to the HTML report in this folder (default: PANESCOPE_REPORT): both
   * screens, the diff, and the session's output and recording (a session started while
   * PANESCOPE_REPORT is set records itself).
   */
  report?: string;
}

/** A session is settled first (quiet for settleMs); a snapshot is taken as it is. */
export async function screenOf(subject: PaneSession | ScreenSnapshot, options: Pick<ExpectGoldenOptions, "settleMs" | "timeoutMs">): Promise<ScreenSnapshot> {
  if (!("waitQuiet" in subject)) return subject;
  const settleMs = options.settleMs ?? 200;
  await subject.waitQuiet(settleMs, options.timeoutMs ?? Math.max(5000, settleMs * 2));
  return subject.snapshot();
}

/**
 * The golden decision for a session's (settled) screen or a snapshot, counted in the runner's
 * summary and reported; never throws for a mismatch. Throws when another test of this run of the
 * test file already used the same golden: one file cannot hold both tests' screens.
 */
export async function checkGolden(subject: PaneSession | ScreenSnapshot, name: string, options: ExpectGoldenOptions, test: RunnerTest = runnerTest()): Promise<Approval & { path: string }> {
  const path = goldenPath(options.dir, options.suite, name);
  const owner = claimGolden(resolve(path), test);
  if (owner !== undefined) throw new PanescopeError("golden", sharedGolden(path, name, owner, test));
  const screen = await screenOf(subject, options);
  const approval = await approve({
    path,
    name,
    screen,
    masks: options.masks ?? [],
    colors: options.colors === true,
    update: options.update ?? (runnerWantsUpdate() || isUpdate(false)),
    ci: options.ci ?? isCI(),
  });
  const d = approval.decision;
  countInRunner(d.kind === "pass" ? "matched" : d.kind === "written" ? (d.reason === "new" ? "added" : "updated") : "unmatched");
  const report = options.report ?? reportFromEnv();
  if ((d.kind === "fail" || d.kind === "missing-in-ci") && report !== undefined) {
    const page = await reportFailure(report, subject, { screen, name, path, approval, suite: options.suite, message: d.message });
    return { ...approval, decision: { ...d, message: `${d.message}\nreport: ${page}` }, path };
  }
  return { ...approval, path };
}

/** What to do about a golden name two tests use; with one name for both tests, rename the tests too. */
function sharedGolden(path: string, name: string, owner: RunnerTest, test: RunnerTest): string {
  const sameName = owner.name === test.name;
  return (
    `golden "${name}" (${path}) is already used by ${sameName ? "another test also named" : "test"} "${owner.name ?? ""}" in this file, ` +
    `and one golden holds one screen: give each test a golden name of its own, e.g. with the case in it (\`${name}-\${item}\` in an it.each)` +
    (sameName ? ", and each test a name of its own (%s or $field in an it.each name)" : "")
  );
}

function reportFromEnv(): string | undefined {
  const dir = process.env.PANESCOPE_REPORT;
  return dir === undefined || dir === "" ? undefined : dir;
}

interface Failure {
  screen: ScreenSnapshot;
  name: string;
  path: string;
  approval: Approval;
  suite: string;
  message: string;
}

/** Adds the failure to the report folder; the page's path. Loaded only when a report is asked for. */
async function reportFailure(dir: string, subject: PaneSession | ScreenSnapshot, f: Failure): Promise<string> {
  const [{ addToReport }, { failureItem }] = await Promise.all([import("./report/collect.js"), import("./report/build.js")]);
  const session = "waitQuiet" in subject ? subject : undefined;
  const test = runnerTest();
  const item = failureItem({
    tape: test.file ?? f.suite,
    snapshot: f.name,
    where: `${test.file ?? f.suite}${test.name === undefined ? "" : ` › ${test.name}`}`,
    statement: `golden ${f.path}`,
    message: f.message,
    screen: f.screen,
    ...(f.approval.expected === undefined ? {} : { expected: f.approval.expected }),
    actual: f.approval.actual,
    raw: (await session?.rawSince()) ?? "",
  });
  return addToReport(dir, f.suite, item, session?.cast());
}

/**
 * Settles the screen (quiet for settleMs), renders it as golden text and compares it with the file.
 * Resolves with the decision ("pass" or "written"); throws on a mismatch or a golden missing in CI.
 */
export async function expectGolden(session: PaneSession, name: string, options: ExpectGoldenOptions): Promise<Decision> {
  const { decision } = await checkGolden(session, name, options);
  if (decision.kind === "fail" || decision.kind === "missing-in-ci") throw new PanescopeError("golden", decision.message);
  return decision;
}
