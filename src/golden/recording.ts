// A golden run's recording: the scenario's pane recorded as an asciicast from its first byte (the
// pane tap and CastRecorder of `panescope record`), held in memory up to a bound, so a failing
// tape can leave its `.cast` beside the report. A cut recording says where it was cut.

import { performance } from "node:perf_hooks";
import { eventLine } from "../evidence/cast.js";
import { CastRecorder } from "../evidence/recorder.js";
import type { PaneObserver } from "../observe/pane/observer.js";
import { GOLDEN_TERM } from "./launch.js";

/** The most a recording keeps (a program that floods its pane must not fill memory). */
export const RECORDING_LIMIT = 16 * 1024 * 1024;

export class SessionRecording {
  private readonly lines: string[] = [];
  private bytes = 0;
  private cutAt: number | undefined;
  private readonly stopTap: () => void;
  private readonly recorder: CastRecorder;
  private readonly started = performance.now();

  constructor(observer: PaneObserver, title: string, limit = RECORDING_LIMIT) {
    this.recorder = new CastRecorder({
      clock: () => performance.now() / 1000,
      header: { title, env: { TERM: GOLDEN_TERM } },
      sink: (line) => {
        if (this.cutAt !== undefined) return;
        if (this.bytes + line.length > limit && this.lines.length > 0) {
          this.cutAt = (performance.now() - this.started) / 1000;
          return;
        }
        this.lines.push(line);
        this.bytes += line.length;
      },
    });
    this.stopTap = observer.tap(this.recorder);
  }

  /** The asciicast so far: header and events, plus a marker where it was cut, if it was. */
  text(): string {
    const cut = this.cutAt === undefined ? "" : `${eventLine([this.cutAt, "m", `recording cut: it reached ${RECORDING_LIMIT / 1024 / 1024} MiB`])}\n`;
    return `${this.lines.join("")}${cut}`;
  }

  stop(): void {
    this.stopTap();
    this.recorder.end();
  }
}
