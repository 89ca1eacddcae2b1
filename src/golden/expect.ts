// The library face: compare a live PaneSession's screen with a golden file from any test runner.
// A mismatch throws PanescopeError("golden") whose message holds the unified diff.

import { PanescopeError } from "../errors.js";
import { approve } from "./approve.js";
import type { Mask } from "./format.js";
import { runnerWantsUpdate } from "./runner.js";
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
}

/**
 * Settles the screen (quiet for settleMs), renders it as golden text and compares it with the file.
 * Resolves with the decision ("pass" or "written"); throws on a mismatch or a golden missing in CI.
 */
export async function expectGolden(session: PaneSession, name: string, options: ExpectGoldenOptions): Promise<Decision> {
  const settleMs = options.settleMs ?? 200;
  await session.waitQuiet(settleMs, options.timeoutMs ?? Math.max(5000, settleMs * 2));
  const path = goldenPath(options.dir, options.suite, name);
  const { decision } = await approve({
    path,
    name,
    screen: await session.snapshot(),
    masks: options.masks ?? [],
    colors: options.colors === true,
    update: options.update ?? (runnerWantsUpdate() || isUpdate(false)),
    ci: options.ci ?? isCI(),
  });
  if (decision.kind === "fail" || decision.kind === "missing-in-ci") throw new PanescopeError("golden", decision.message);
  return decision;
}
