// `expect(session).toMatchGolden(name)` for vitest (and jest): the same check as expectGolden as a
// custom matcher. Goldens default to `__goldens__/<test file name>/<name>.golden` beside the test
// file. No import of vitest: the matcher reads what the runner passes as `this`.

import { basename, dirname, join } from "node:path";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { checkGolden, type ExpectGoldenOptions } from "./expect.js";
import type { PaneSession } from "./session.js";

export type MatchGoldenOptions = Omit<ExpectGoldenOptions, "dir" | "suite"> & Partial<Pick<ExpectGoldenOptions, "dir" | "suite">>;

/** The part of a runner's matcher context (`this`) the matcher reads. */
interface MatcherThis {
  isNot?: boolean;
  testPath?: string;
  currentTestName?: string;
  /** vitest's running test (its id stays the same on a retry or a repeat). */
  task?: { id?: unknown };
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** The test file's name without `.test.ts`/`.spec.js` and the like: `menu.test.ts` → `menu`. */
export function suiteOf(testPath: string): string {
  return basename(testPath).replace(/(\.(test|spec))?\.[cm]?[jt]sx?$/, "");
}

async function toMatchGolden(this: MatcherThis, received: PaneSession | ScreenSnapshot, name: string, options: MatchGoldenOptions = {}): Promise<MatcherResult> {
  if (this.isNot === true) throw new TypeError("toMatchGolden cannot be negated: a golden says what the screen must be, not what it must not be");
  const testPath = this.testPath ?? "";
  const dir = options.dir ?? join(dirname(testPath), "__goldens__");
  const suite = options.suite ?? suiteOf(testPath);
  // The test as vitest tells it to a matcher: its task id tells apart tests that share one name.
  const id = this.task?.id;
  const test = { ...(this.currentTestName === undefined ? {} : { name: this.currentTestName }), ...(typeof id === "string" ? { id } : {}) };
  const { decision, path } = await checkGolden(received, name, { ...options, dir, suite }, test);
  if (decision.kind === "fail" || decision.kind === "missing-in-ci") return { pass: false, message: () => decision.message };
  return { pass: true, message: () => `${path} matches the screen` };
}

/** `expect.extend(goldenMatchers)` once (a setup file), then `await expect(session).toMatchGolden("name")`. */
export const goldenMatchers = { toMatchGolden };

/**
 * The matcher's type for `declare module "vitest" { interface Assertion<T> extends GoldenMatchers<T> {} }`
 * (kept here so panescope/golden needs no vitest types).
 */
export interface GoldenMatchers<R = unknown> {
  toMatchGolden(name: string, options?: MatchGoldenOptions): Promise<R>;
}
