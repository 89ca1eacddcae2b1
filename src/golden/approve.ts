// One snapshot against its golden file: render the screen, read the golden, decide (pass, fail,
// write) and write when the decision says so. Shared by runTape, expectGolden and toMatchGolden.
// An old (v1) golden is compared with the screen written as v1, so it keeps passing until updated.

import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { formatGolden, GOLDEN_VERSION, goldenVersion, type Mask } from "./format.js";
import { decide, readGolden, writeGolden, type Decision } from "./store.js";

export interface ApproveInput {
  path: string;
  name: string;
  screen: ScreenSnapshot;
  masks: Mask[];
  colors: boolean;
  update: boolean;
  ci: boolean;
}

export interface Approval {
  decision: Decision;
  /** The golden text as it was on disk, undefined when it was missing. */
  expected?: string;
  /** The screen as golden text, in the format it was compared in. */
  actual: string;
}

/** Compares `screen` with the golden at `path` and writes it when new or updated (never under CI). */
export async function approve(input: ApproveInput): Promise<Approval> {
  const expected = await readGolden(input.path);
  const format = { masks: input.masks, colors: input.colors, name: input.name };
  const current = formatGolden(input.screen, format);
  const actual = expected !== undefined && goldenVersion(expected) === 1 ? formatGolden(input.screen, { ...format, version: 1 }) : current;
  const compared = decide({ ...(expected === undefined ? {} : { expected }), actual, update: input.update, ci: input.ci, path: input.path });
  // A golden from a newer panescope fails on its first line whatever the screen: say why first.
  const version = expected === undefined ? undefined : goldenVersion(expected);
  const decision: Decision =
    compared.kind === "fail" && version !== undefined && version > GOLDEN_VERSION
      ? { ...compared, message: `${input.path} is golden format v${version}, newer than this panescope reads (v1 to v${GOLDEN_VERSION}): upgrade panescope, or re-record it with --update (as v${GOLDEN_VERSION})\n${compared.diff}` }
      : compared;
  // An update writes the current format: the old golden becomes v2.
  if (decision.kind === "written") await writeGolden(input.path, current);
  return { decision, ...(expected === undefined ? {} : { expected }), actual };
}
