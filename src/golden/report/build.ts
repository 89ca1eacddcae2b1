// From a golden run's results to the report's items: each failing snapshot with both screens read
// back from their golden texts, the tape line, the step's output and the tape's recording (as
// frames, on the tape's first item). Reads the tape files for their lines; writes nothing.

import { readFile } from "node:fs/promises";
import { parseCast } from "../../evidence/cast.js";
import type { ScreenSnapshot } from "../../observe/snapshot.js";
import type { SnapshotResult, TapeResult } from "../run.js";
import { castFrames } from "./frames.js";
import type { ReportItem, ReportRecording } from "./page.js";
import { goldenScreen } from "./screens.js";

/** Line `n` (1-based) of a file, or "" when it cannot be read. */
async function lineOf(path: string, n: number): Promise<string> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text.split("\n")[n - 1] ?? "";
}

function lineNumber(where: string): number {
  return Number(/:(\d+)$/.exec(where)?.[1] ?? 0);
}

/** What a failing golden check knows, from a tape or from a test. */
export interface FailedCheck {
  /** The tape, or the test file. */
  tape: string;
  snapshot: string;
  where: string;
  statement: string;
  message: string;
  screen: ScreenSnapshot;
  /** Both sides as golden text (expected undefined when the golden is missing). */
  expected?: string;
  actual: string;
  raw: string;
}

/** A failing check's item: both screens read back from their golden texts. */
export function failureItem(check: FailedCheck): ReportItem {
  // A text-only golden still shows the live screen's colours, on both sides.
  const colours = check.screen.styles;
  return {
    tape: check.tape,
    snapshot: check.snapshot,
    where: check.where,
    statement: check.statement,
    message: check.message,
    ...(check.expected === undefined ? {} : { expected: goldenScreen(check.expected, colours) }),
    actual: goldenScreen(check.actual, colours),
    raw: check.raw,
  };
}

/** A snapshot's item, or undefined when it passed (or was written). */
export async function snapshotItem(tape: string, s: SnapshotResult): Promise<ReportItem | undefined> {
  const d = s.decision;
  if (d.kind !== "fail" && d.kind !== "missing-in-ci") return undefined;
  const statement = await lineOf(tape, lineNumber(s.where));
  return failureItem({ tape, snapshot: s.name, where: s.where, statement, message: d.message, screen: s.screen, ...(s.expected === undefined ? {} : { expected: s.expected }), actual: s.actual, raw: s.raw ?? "" });
}

/** The recording as player frames, linked to its file; undefined when the cast cannot be read. */
export async function recordingOf(cast: string, file: string): Promise<ReportRecording | undefined> {
  try {
    return { file, frames: await castFrames(parseCast(cast)) };
  } catch {
    return undefined;
  }
}

/** Every item of one tape's result; `castFile` names its saved recording when there is one. */
export async function tapeItems(result: TapeResult, castFile?: string): Promise<ReportItem[]> {
  const items: ReportItem[] = [];
  for (const s of result.snapshots) {
    const item = await snapshotItem(result.path, s);
    if (item !== undefined) items.push(item);
  }
  if (result.error !== undefined) {
    const line = result.failedAt?.line ?? 0;
    items.push({ tape: result.path, where: `${result.path}:${line}`, statement: await lineOf(result.path, line), message: result.error, raw: result.failedAt?.raw ?? "" });
  }
  const first = items[0];
  if (first !== undefined && result.cast !== undefined && castFile !== undefined) {
    const recording = await recordingOf(result.cast, castFile);
    if (recording !== undefined) first.recording = recording;
  }
  return items;
}
