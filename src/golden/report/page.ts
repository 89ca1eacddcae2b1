// The golden report as one self-contained HTML page: per failing snapshot the expected and actual
// screens side by side (SVG, differing cells highlighted, nothing else), the tape line, the diff,
// the output that step printed, and the tape's recording as frames a small script plays. Pure.

import { escapeHtml, htmlPage, scriptJson } from "../../evidence/page.js";
import { screenToSvg } from "../../evidence/svg.js";
import type { ScreenSnapshot } from "../../observe/emulator/snapshot.js";
import type { PlayerFrame } from "./frames.js";
import { differingCells, within } from "./screens.js";
import { PLAYER_SCRIPT } from "./player-script.js";

/** The most raw output shown per step: its end, where the failure is. */
const RAW_LIMIT = 64 * 1024;

export interface ReportRecording {
  /** The .cast file's name, relative to the page. */
  file: string;
  frames: PlayerFrame[];
}

export interface ReportItem {
  tape: string;
  /** The snapshot's name; undefined for a step that failed before or without a snapshot. */
  snapshot?: string;
  /** `file:line` of the statement. */
  where: string;
  /** The tape's lines (numbered) from the step after the previous snapshot to this one. */
  statement: string;
  /** What failed: the message with the text diff, or the step's error. */
  message: string;
  /** The golden's screen; undefined when the golden is missing. */
  expected?: ScreenSnapshot;
  actual?: ScreenSnapshot;
  /** Output the program printed during the steps up to this one (escapes removed). */
  raw: string;
  recording?: ReportRecording;
}

export interface ReportSummary {
  /** Unknown to a test runner's report, which sees only failures. */
  passed?: number;
  failed: number;
  /** When the run ended, as the reader's clock shows it. */
  when: string;
}

function figure(side: "expected" | "actual", screen: ScreenSnapshot | undefined, highlight: ReturnType<typeof differingCells>): string {
  const body = screen === undefined ? `<pre>(no golden yet)</pre>` : screenToSvg(screen, { highlight: within(highlight, screen) });
  return `<figure data-side="${side}"><figcaption>${side}</figcaption>${body}</figure>`;
}

function rawHtml(raw: string): string {
  const cut = raw.length > RAW_LIMIT;
  const shown = cut ? raw.slice(raw.length - RAW_LIMIT) : raw;
  const note = cut ? `<div class="meta">the last ${RAW_LIMIT / 1024} KiB of ${Math.round(raw.length / 1024)} KiB</div>` : "";
  return `<details><summary>output of the steps (escapes removed)</summary>${note}<pre class="raw">${escapeHtml(shown)}</pre></details>`;
}

function playerHtml(id: string, recording: ReportRecording): string {
  const last = recording.frames.at(-1)?.t ?? 0;
  return [
    `<div class="player" data-frames="${id}">`,
    `<h3>recording</h3>`,
    `<div class="controls"><button type="button" class="play">play</button><input type="range" class="scrub" min="0" max="${recording.frames.length - 1}" value="${recording.frames.length - 1}" aria-label="frame"><span class="time meta">${last.toFixed(2)} s</span></div>`,
    `<pre class="term"></pre>`,
    `<div class="meta">${recording.frames.length} frames · <a href="${escapeHtml(encodeURI(recording.file))}" download>${escapeHtml(recording.file)}</a> (asciicast v2: <code>asciinema play ${escapeHtml(recording.file)}</code>)</div>`,
    `<script type="application/json" id="${id}">${scriptJson(recording.frames)}</script>`,
    `</div>`,
  ].join("\n");
}

function itemHtml(item: ReportItem, index: number): string {
  const diff = item.expected !== undefined && item.actual !== undefined ? differingCells(item.expected, item.actual) : [];
  const title = item.snapshot === undefined ? `${item.tape}: step failed` : `${item.tape}: snapshot ${item.snapshot}`;
  const screens = item.actual === undefined && item.expected === undefined ? "" : `<div class="screens">${figure("expected", item.expected, diff)}${figure("actual", item.actual, diff)}</div>`;
  return [
    `<section class="item fail" id="item-${index}" data-snapshot="${escapeHtml(item.snapshot ?? "")}" data-differing-cells="${diff.reduce((n, r) => n + r.end - r.start, 0)}">`,
    `<h2><span class="badge fail">FAIL</span>${escapeHtml(title)}</h2>`,
    `<div class="meta">${escapeHtml(item.where)}</div>`,
    `<h3>steps</h3><pre class="statement">${escapeHtml(item.statement)}</pre>`,
    screens,
    `<h3>what failed</h3><pre class="message">${escapeHtml(item.message)}</pre>`,
    rawHtml(item.raw),
    item.recording === undefined ? "" : playerHtml(`frames-${index}`, item.recording),
    `</section>`,
  ].join("\n");
}

/** The whole report page. */
export function reportPage(items: readonly ReportItem[], summary: ReportSummary): string {
  const body = items.length === 0 ? `<p>Every snapshot matched its golden.</p>` : items.map(itemHtml).join("\n");
  return htmlPage({
    title: "panescope golden report",
    subtitle: `${summary.passed === undefined ? "" : `${summary.passed} passed, `}${summary.failed} failed · ${summary.when}`,
    body,
    script: PLAYER_SCRIPT,
  });
}
