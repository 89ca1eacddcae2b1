// A transcript (mcp --transcript) as one HTML page: each tool call with its time and duration, its
// arguments, and the answer as the agent read it (text, images, the structured result folded away).
// Pure: the transcript's text in, the page out.

import { dataUrl, escapeHtml, htmlPage } from "../../evidence/page.js";
import type { TranscriptEntry } from "../transcript.js";

export interface ParsedTranscript {
  entries: TranscriptEntry[];
  /** 1-based numbers of lines that were not transcript entries (cut short, edited by hand). */
  skipped: number[];
}

function isEntry(value: unknown): value is TranscriptEntry {
  const v = value as Partial<TranscriptEntry> | null;
  return typeof v === "object" && v !== null && typeof v.seq === "number" && typeof v.tool === "string" && typeof v.start === "string" && typeof v.ms === "number";
}

/**
 * The calls in the order they started. A line is written when its call finishes (a slow wait after
 * a later read), numbered `seq` in the order it started; a file appended to by several runs of the
 * server holds one run of numbers each, and a number seen again begins the next run.
 */
function inStartOrder(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  const runs: TranscriptEntry[][] = [[]];
  let seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.seq)) {
      runs.push([]);
      seen = new Set();
    }
    seen.add(entry.seq);
    runs.at(-1)?.push(entry);
  }
  return runs.flatMap((run) => run.sort((a, b) => a.seq - b.seq));
}

/** Every line that is an entry, in the order the calls started; a line that is not (a crash mid-write, an edit) is skipped and counted. */
export function parseTranscript(text: string): ParsedTranscript {
  const entries: TranscriptEntry[] = [];
  const skipped: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value: unknown = JSON.parse(line);
      if (isEntry(value)) entries.push(value);
      else skipped.push(i + 1);
    } catch {
      skipped.push(i + 1);
    }
  });
  return { entries: inStartOrder(entries), skipped };
}

interface Content {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  /** An image the transcript kept as its size only (transcript.ts). */
  bytes?: number;
}

/** One content item as the agent saw it: text verbatim, images shown (SVG text too, as an image). */
function contentHtml(item: Content): string {
  if (item.type === "text" && typeof item.text === "string") {
    if (/^\s*<svg[\s>]/.test(item.text)) return `<img alt="screen" src="${dataUrl("image/svg+xml", item.text)}">`;
    // capture_pane's svg comes after its rows in the same text: the rows, then the picture, its
    // source folded away (the agent read it all; a person wants to see it).
    const svgAt = item.text.search(/\n<svg[\s>]/);
    if (svgAt !== -1 && /<\/svg>\s*$/.test(item.text)) {
      const svg = item.text.slice(svgAt + 1);
      return `<pre>${escapeHtml(item.text.slice(0, svgAt))}</pre>\n<img alt="screen" src="${dataUrl("image/svg+xml", svg)}">\n<details><summary>svg source</summary><pre>${escapeHtml(svg)}</pre></details>`;
    }
    return `<pre>${escapeHtml(item.text)}</pre>`;
  }
  if (item.type === "image" && item.data === undefined && typeof item.bytes === "number") {
    return `<p class="meta">${escapeHtml(item.mimeType ?? "image")}, ${item.bytes} bytes: not kept in the transcript</p>`;
  }
  if (item.type === "image" && typeof item.data === "string" && /^image\/(png|jpeg|gif|webp|svg\+xml)$/.test(item.mimeType ?? "")) {
    return `<img alt="screen" src="data:${item.mimeType};base64,${escapeHtml(item.data.replace(/[^A-Za-z0-9+/=]/g, ""))}">`;
  }
  return `<pre>${escapeHtml(JSON.stringify(item, null, 2))}</pre>`;
}

function answerHtml(entry: TranscriptEntry): { html: string; failed: boolean } {
  if (entry.error !== undefined) {
    return { html: `<h3>refused (JSON-RPC error${entry.error.code === undefined ? "" : ` ${entry.error.code}`})</h3><pre>${escapeHtml(entry.error.message)}</pre>`, failed: true };
  }
  const result = (entry.result ?? {}) as { content?: Content[]; isError?: boolean; structuredContent?: unknown };
  const parts = (result.content ?? []).map(contentHtml).join("\n");
  const structured =
    result.structuredContent === undefined ? "" : `<details><summary>structured result</summary><pre>${escapeHtml(JSON.stringify(result.structuredContent, null, 2))}</pre></details>`;
  return { html: `<h3>${result.isError === true ? "answer: error" : "answer"}</h3>\n<div class="screens">${parts}</div>\n${structured}`, failed: result.isError === true };
}

/** What the transcript left out of this call, and the end of its run's record (transcript.ts). */
function omittedHtml(entry: TranscriptEntry): string[] {
  const cuts = (Array.isArray(entry.omitted) ? entry.omitted : []).map((cut) => `${cut.path}: ${cut.chars} characters, ${cut.kept === 0 ? "none" : `the first ${cut.kept}`} kept`);
  return [
    ...(cuts.length === 0 ? [] : [`<div class="meta">left out of the transcript: ${escapeHtml(cuts.join("; "))}</div>`]),
    ...(typeof entry.ends === "string" ? [`<div class="meta">${escapeHtml(entry.ends)}</div>`] : []),
  ];
}

function entryHtml(entry: TranscriptEntry): string {
  const answer = answerHtml(entry);
  const status = answer.failed ? "fail" : "pass";
  return [
    `<section class="item ${status}" id="call-${entry.seq}" data-tool="${escapeHtml(entry.tool)}">`,
    `<h2><span class="badge ${status}">${answer.failed ? "ERROR" : "OK"}</span>#${entry.seq} ${escapeHtml(entry.tool)}</h2>`,
    `<div class="meta">${escapeHtml(entry.start)} · ${entry.ms} ms</div>`,
    `<h3>arguments</h3><pre>${escapeHtml(JSON.stringify(entry.arguments ?? {}, null, 2))}</pre>`,
    answer.html,
    ...omittedHtml(entry),
    "</section>",
  ].join("\n");
}

/** The page for a parsed transcript; `source` names the file it came from. */
export function renderTranscript(parsed: ParsedTranscript, source: string): string {
  const { entries, skipped } = parsed;
  const errors = entries.filter((e) => answerHtml(e).failed).length;
  const first = entries[0]?.start;
  const total = entries.reduce((sum, e) => sum + e.ms, 0);
  const subtitle = [
    `${source}: ${entries.length} call${entries.length === 1 ? "" : "s"}, ${errors} answered with an error`,
    ...(first === undefined ? [] : [`from ${first}`, `${Math.round(total)} ms in tools`]),
    ...(skipped.length === 0 ? [] : [`lines not read: ${skipped.join(", ")}`]),
  ].join(" · ");
  return htmlPage({ title: "panescope transcript", subtitle, body: entries.map(entryHtml).join("\n") });
}
