// What `panescope golden` prints while and after tapes run: a live line per running tape (on a
// terminal: the step it is at; elsewhere a line every few seconds while one tape runs long), a
// PASS/FAIL block per tape with coloured diffs on a terminal, and a vitest-like snapshot summary.

import { colourDiff } from "./diff-colour.js";
import type { SnapshotResult, TapeResult } from "./run.js";
import type { Step } from "./tape.js";

export interface ReporterIo {
  out: (line: string) => void;
  /** Writes without a newline (the live line on a terminal). */
  write: (text: string) => void;
  /** stdout is a terminal: the live line is redrawn in place. */
  tty: boolean;
  colour: boolean;
  /** The terminal's width: a longer live line would wrap, and `\r` could not redraw it. */
  columns?: number;
}

/** Snapshot counts for the summary line, the way vitest counts them. */
export interface SnapshotCounts {
  passed: number;
  written: number;
  updated: number;
  failed: number;
  obsolete: number;
}

const GREEN = "\u001b[32m";
const RED = "\u001b[31m";
const RESET = "\u001b[0m";
const CLEAR_LINE = "\r\u001b[K";
/** How often a long tape says it is still running when the output is not a terminal. */
const HEARTBEAT_MS = 5000;

export function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function stepText(step: Step): string {
  return `line ${step.line}: ${step.kind === "snapshot" ? `snapshot ${step.name}` : step.kind}`;
}

export class GoldenReporter {
  readonly counts: SnapshotCounts = { passed: 0, written: 0, updated: 0, failed: 0, obsolete: 0 };
  private live = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private running: { path: string; step?: Step } | undefined;

  constructor(private readonly io: ReporterIo) {}

  /** A tape starts: on a terminal its path shows at once, so a long run is never silent. */
  start(path: string): void {
    this.running = { path };
    if (this.io.tty) this.draw();
    else {
      this.heartbeat = setInterval(() => {
        const at = this.running?.step === undefined ? "starting" : stepText(this.running.step);
        this.io.out(`  … ${this.running?.path ?? path} still running (${at})`);
      }, HEARTBEAT_MS);
      this.heartbeat.unref();
    }
  }

  /** The running tape reached a step. */
  step(step: Step): void {
    if (this.running === undefined) return;
    this.running.step = step;
    if (this.io.tty) this.draw();
  }

  /** A tape ended: its PASS/FAIL line, written goldens, diffs and errors. */
  finish(result: TapeResult): void {
    this.stopLive();
    const seconds = (result.ms / 1000).toFixed(1);
    const count = `${result.snapshots.length} snapshot${result.snapshots.length === 1 ? "" : "s"}`;
    const verdict = result.passed ? this.paint(GREEN, "PASS") : this.paint(RED, "FAIL");
    this.io.out(`${verdict} ${result.path} (${count}, ${seconds}s)`);
    for (const s of result.snapshots) this.snapshot(s);
    if (result.error !== undefined) this.io.out(indent(result.error));
  }

  /** The run was stopped: on a terminal the live line stays, ended, to show where it stopped. */
  abandon(): void {
    const live = this.live;
    this.live = false;
    this.stopLive();
    if (live) this.io.write("\n");
  }

  /** A line of its own (tape errors, notes), clearing the live line first. */
  line(text: string): void {
    this.stopLive();
    this.io.out(text);
  }

  /** `snapshots: 1 written, 1 failed, 2 obsolete` when anything but passes happened (as vitest). */
  summary(): string | undefined {
    const c = this.counts;
    const parts = [
      [c.written, "written"],
      [c.updated, "updated"],
      [c.failed, "failed"],
      [c.obsolete, "obsolete (panescope golden --list-stale names them)"],
    ].flatMap(([n, what]) => (n === 0 ? [] : [`${n} ${what}`]));
    return parts.length === 0 ? undefined : `snapshots: ${parts.join(", ")}`;
  }

  private snapshot(s: SnapshotResult): void {
    const d = s.decision;
    if (d.kind === "pass") this.counts.passed++;
    if (d.kind === "written") {
      if (d.reason === "new") this.counts.written++;
      else this.counts.updated++;
      this.io.out(`  wrote ${s.path} (${d.reason === "new" ? "new golden" : "updated"}): review it before committing`);
    }
    if (d.kind === "fail" || d.kind === "missing-in-ci") {
      this.counts.failed++;
      const message = d.kind === "fail" && this.io.colour ? `${d.message.slice(0, d.message.length - d.diff.length)}${colourDiff(d.diff)}` : d.message;
      this.io.out(indent(`${s.where} snapshot ${s.name}: ${message}`));
    }
    if (s.disagreements !== undefined && s.disagreements.length > 0) {
      this.io.out(indent(`${s.where} snapshot ${s.name}: tmux's own rendering disagrees with panescope's:\n${s.disagreements.join("\n")}`));
    }
  }

  private draw(): void {
    const at = this.running?.step === undefined ? "" : `  ${stepText(this.running.step)}`;
    const line = `RUN  ${this.running?.path ?? ""}${at}`;
    const width = Math.max(10, (this.io.columns ?? 80) - 1);
    this.io.write(`${CLEAR_LINE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.live = true;
  }

  private stopLive(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.running = undefined;
    if (this.live) this.io.write(CLEAR_LINE);
    this.live = false;
  }

  private paint(colour: string, text: string): string {
    return this.io.colour ? `${colour}${text}${RESET}` : text;
  }
}
