// From a golden run's results to the report's items: each failing snapshot with both screens read
// back from their golden texts, the tape line, the step's output and the tape's recording (as
// frames, on the tape's first item). Reads the tape files for their lines; writes nothing.

import { readFile } from "node:fs/promises";
import { parseCast } from "../../evidence/cast.js";
import type { ScreenSnapshot } from "../../observe/emulator/snapshot.js";
import type { SnapshotResult, TapeResult } from "../run.js";
import { castFrames } from "./frames.js";
import type { ReportItem, ReportRecording } from "./page.js";
import { goldenScreen } from "./screens.js";

/** The most tape lines shown before the one that failed. */
const STEPS_SHOWN = 12;

/**
 * The tape's steps that produced a snapshot (or a failure): lines `from`..`to` (1-based), numbered,
 * at most STEPS_SHOWN ending at `to`; "" when the tape cannot be read.
 */
async function stepsOf(path: string, from: number, to: number): Promise<string> {
  const lines = (await readFile(path, "utf8").catch(() => "")).split("\n");
  const first = Math.max(from, to - STEPS_SHOWN + 1, 1);
  const width = String(to).length;
  const shown: string[] = [];
  for (let n = first; n <= to && n <= lines.length; n++) shown.push(`${String(n).padStart(width)}  ${lines[n - 1] ?? ""}`);
  return shown.join("\n");
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

/** A snapshot's item, or undefined when it passed (or was written); `from`: the first line of its steps. */
export async function snapshotItem(tape: string, s: SnapshotResult, from = 1): Promise<ReportItem | undefined> {
  const d = s.decision;
  if (d.kind !== "fail" && d.kind !== "missing-in-ci") return undefined;
  const statement = await stepsOf(tape, from, lineNumber(s.where));
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
  // Each snapshot's steps start after the snapshot before it; the output shown is theirs too.
  let from = 1;
  for (const s of result.snapshots) {
    const item = await snapshotItem(result.path, s, from);
    if (item !== undefined) items.push(item);
    from = lineNumber(s.where) + 1;
  }
  if (result.error !== undefined) {
    const line = result.failedAt?.line ?? 0;
    items.push({ tape: result.path, where: `${result.path}:${line}`, statement: await stepsOf(result.path, from, line), message: result.error, raw: result.failedAt?.raw ?? "" });
  }
  const first = items[0];
  if (first !== undefined && result.cast !== undefined && castFile !== undefined) {
    const recording = await recordingOf(result.cast, castFile);
    if (recording !== undefined) first.recording = recording;
  }
  return items;
}
