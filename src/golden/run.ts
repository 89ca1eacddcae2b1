// Runs one tape: starts its program in a private tmux pane, plays the steps, and at each snapshot
// settles, renders the golden text, decides pass/fail/write, and optionally cross-checks tmux.

import { dirname, resolve } from "node:path";
import { isPanescopeError, messageOf, PanescopeError } from "../errors.js";
import type { ScreenSnapshot } from "../observe/emulator/snapshot.js";
import { approve } from "./approve.js";
import { describeMatch, frameScreen, screenMatches } from "./matching.js";
import { startPaneSession, type PaneSession, type TmuxView } from "./session.js";
import { goldenPath, type Decision } from "./store.js";
import type { Step, Tape, TextMatch } from "./tape.js";

export interface RunTapeOptions {
  /** Folder holding `<tape name>/<snapshot>.golden` (default: the tape's own folder). */
  goldenDir?: string;
  update?: boolean;
  ci?: boolean;
  /** Compare every snapshot with tmux's own rendering of the pane (capture-pane -p). */
  checkTmux?: boolean;
  /** The tmux binary (default "tmux"). */
  tmux?: string;
  /** Working directory of the program (default: the tape's folder). */
  cwd?: string;
  /** Starts the program's session (default: startPaneSession); a test can hold it until a chosen moment. */
  start?: typeof startPaneSession;
  /** Told of each step as it starts (progress for a person watching a long run). */
  onStep?: (step: Step) => void;
  /** Record the pane as an asciicast (TapeResult.cast) and keep each step's output (raw). */
  record?: boolean;
}

export interface SnapshotResult {
  name: string;
  /** `file:line` of the snapshot step. */
  where: string;
  path: string;
  decision: Decision;
  /** The screen the snapshot took. */
  screen: ScreenSnapshot;
  /** The golden text on disk before the run; undefined when it was missing. */
  expected?: string;
  /** The screen as golden text, in the format it was compared in. */
  actual: string;
  /** Output printed since the previous snapshot (escapes removed); only when recording. */
  raw?: string;
  /** Rows (and cursor) where tmux's rendering differs from panescope's; only with checkTmux. */
  disagreements?: string[];
}

export interface TapeResult {
  path: string;
  snapshots: SnapshotResult[];
  /** The scenario could not finish (bad step, timeout, program exited early, tmux failure). */
  error?: string;
  passed: boolean;
  ms: number;
  /** The failing step's line, and the output printed since the last snapshot; with `error` when recording. */
  failedAt?: { line: number; raw: string };
  /** The recording (asciicast v2), when asked for. */
  cast?: string;
}

/** Row-by-row differences between panescope's screen and tmux's, empty when they agree. */
export function crossCheck(snapshot: ScreenSnapshot, view: TmuxView): string[] {
  const out: string[] = [];
  const rows = Math.max(snapshot.lines.length, view.lines.length);
  for (let y = 0; y < rows; y++) {
    const ours = (snapshot.lines[y] ?? "").trimEnd();
    const theirs = (view.lines[y] ?? "").trimEnd();
    if (ours !== theirs) out.push(`row ${y}: tmux ${JSON.stringify(theirs)} | panescope ${JSON.stringify(ours)}`);
  }
  if (snapshot.cursorX !== view.cursorX || snapshot.cursorY !== view.cursorY) {
    out.push(`cursor: tmux ${view.cursorX},${view.cursorY} | panescope ${snapshot.cursorX},${snapshot.cursorY}`);
  }
  if (snapshot.alternate !== view.alternate) out.push(`alternate screen: tmux ${view.alternate ? "yes" : "no"} | panescope ${snapshot.alternate ? "yes" : "no"}`);
  return out;
}

function sameScreen(a: ScreenSnapshot, b: ScreenSnapshot): boolean {
  return a.cursorX === b.cursorX && a.cursorY === b.cursorY && a.alternate === b.alternate && a.lines.join("\n") === b.lines.join("\n");
}

/**
 * The same moment for both renderings: panescope's screen before and after tmux's capture must be
 * equal (the program is quiet after the settle rule); if it moved, settle again and retry.
 */
async function snapshotWithTmux(session: PaneSession, settleMs: number, timeoutMs: number): Promise<{ snapshot: ScreenSnapshot; view: TmuxView }> {
  for (let attempt = 0; ; attempt++) {
    const before = await session.snapshot();
    const view = await session.captureTmux();
    const after = await session.snapshot();
    if (sameScreen(before, after) || attempt >= 3) return { snapshot: before, view };
    await session.waitQuiet(settleMs, timeoutMs);
  }
}

class StepError extends Error {}

/** Plays the tape; never throws for a scenario failure (it is in `error`). */
export async function runTape(tape: Tape, options: RunTapeOptions = {}): Promise<TapeResult> {
  const started = Date.now();
  const goldenDir = options.goldenDir ?? dirname(tape.path);
  const snapshots: SnapshotResult[] = [];
  let session: PaneSession | undefined;
  let current: { line: number; text: string } = { line: tape.run.line, text: "run" };
  const where = (line: number): string => `${tape.path}:${line}`;
  let lastWait: TextMatch | undefined;

  const snapshot = async (step: Extract<Step, { kind: "snapshot" }>, live: PaneSession): Promise<void> => {
    await live.waitQuiet(tape.settleMs, Math.max(tape.timeoutMs, tape.settleMs * 2));
    let screen: ScreenSnapshot;
    let disagreements: string[] | undefined;
    if (options.checkTmux === true) {
      const both = await snapshotWithTmux(live, tape.settleMs, tape.timeoutMs);
      screen = both.snapshot;
      disagreements = crossCheck(screen, both.view);
    } else {
      screen = await live.snapshot();
    }
    if (lastWait !== undefined && !screenMatches(await live.displayedLines(), lastWait)) {
      throw new StepError(`${describeMatch(lastWait)} was visible but is gone after settling for ${tape.settleMs} ms; the screen:\n${frameScreen(screen.lines, screen.cols)}`);
    }
    const path = goldenPath(goldenDir, tape.path, step.name);
    const { decision, expected, actual } = await approve({ path, name: step.name, screen, masks: tape.masks, colors: tape.colors, update: options.update === true, ci: options.ci === true });
    const raw = options.record === true ? { raw: await live.rawSince() } : {};
    snapshots.push({ name: step.name, where: where(step.line), path, decision, screen, actual, ...raw, ...(expected === undefined ? {} : { expected }), ...(disagreements === undefined ? {} : { disagreements }) });
  };

  const play = async (step: Step, live: PaneSession): Promise<void> => {
    // Steps that type, press or resize need the program; waiting on its final screen, or taking a
    // snapshot of it, does not (a short program often exits before its tape's first `wait` runs).
    if (live.dead && (step.kind === "type" || step.kind === "press" || step.kind === "resize")) throw await live.deathError("before this step");
    // The settle rule checks only a `wait` right before the snapshot: keys, a resize, a quiet or
    // the exit after it may rightly take its text off the screen (`clear`, a menu that closes).
    if (step.kind !== "wait" && step.kind !== "snapshot") lastWait = undefined;
    switch (step.kind) {
      case "type":
        await live.typeText(step.text);
        return;
      case "press":
        await live.sendKeys(step.keys);
        return;
      case "wait":
        await live.waitFor(step.match, step.timeoutMs);
        lastWait = step.match;
        return;
      case "quiet":
        await live.waitQuiet(step.ms, step.timeoutMs);
        return;
      case "resize":
        await live.resize(step.size);
        return;
      case "snapshot":
        await snapshot(step, live);
        return;
      case "expect-exit": {
        const status = await live.waitExit(tape.timeoutMs);
        if (status.code !== step.code) {
          const last = await live.snapshot();
          throw new StepError(`expected exit status ${step.code}, the program exited with ${status.code ?? "unknown"}; its last screen:\n${frameScreen(last.lines, last.cols)}`);
        }
        return;
      }
    }
  };

  let error: string | undefined;
  let failedAt: TapeResult["failedAt"];
  let cast: string | undefined;
  try {
    session = await (options.start ?? startPaneSession)({
      size: tape.size,
      env: tape.env,
      command: tape.run.command,
      cwd: resolve(options.cwd ?? dirname(tape.path)),
      tmux: options.tmux,
      label: tape.path,
      ...(options.record === true ? { record: { title: tape.path } } : {}),
    });
    for (const step of tape.steps) {
      current = { line: step.line, text: step.kind };
      options.onStep?.(step);
      await play(step, session);
    }
  } catch (caught) {
    const known = caught instanceof StepError || isPanescopeError(caught);
    if (!known) throw caught;
    error = `${where(current.line)} (${current.text}): ${messageOf(caught)}`;
    if (options.record === true) failedAt = { line: current.line, raw: (await session?.rawSince().catch(() => "")) ?? "" };
  } finally {
    await session?.close();
    cast = session?.cast();
  }
  const passed = error === undefined && snapshots.every((s) => (s.decision.kind === "pass" || s.decision.kind === "written") && (s.disagreements ?? []).length === 0);
  return { path: tape.path, snapshots, ...(error === undefined ? {} : { error }), ...(failedAt === undefined ? {} : { failedAt }), ...(cast === undefined ? {} : { cast }), passed, ms: Date.now() - started };
}

/** A failure of runTape as an error (for callers who prefer throwing). */
export function tapeError(result: TapeResult): PanescopeError | undefined {
  if (result.passed) return undefined;
  const parts = [result.error, ...result.snapshots.flatMap((s) => (s.decision.kind === "fail" || s.decision.kind === "missing-in-ci" ? [s.decision.message] : []))];
  return new PanescopeError("golden", parts.filter((p) => p !== undefined).join("\n"));
}
