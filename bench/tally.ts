// Issue 28's goals over several runs, as its "done when" counts them: each run's JSON report
// (`npm run bench -- --quick --only 1,3,5 --json FILE`) judged again (bench/goals.ts), one column
// per run, and in how many runs each item was met.
// Usage: npx tsx bench/tally.ts run1.json run2.json run3.json
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { itemsMet, judge, mark } from "./goals.js";
import type { Report } from "./lib/format.js";

export function tally(reports: readonly Report[]): string {
  const runs = reports.map((report) => judge(report.results));
  const rows = new Map<string, { id: string; text: string; cells: string[] }>();
  runs.forEach((verdicts, run) => {
    for (const v of verdicts) {
      const key = `${v.id} ${v.text}`;
      const row = rows.get(key) ?? { id: v.id, text: v.text, cells: reports.map(() => "—") };
      row.cells[run] = `${mark(v)} ${v.shown}`;
      rows.set(key, row);
    }
  });
  const header = `| # | goal | ${reports.map((r, i) => `run ${i + 1} (${r.machine.date.slice(11)})`).join(" | ")} |`;
  const rule = `|---|---|${reports.map(() => "---").join("|")}|`;
  const lines = [...rows.values()].map((row) => `| ${row.id} | ${row.text} | ${row.cells.join(" | ")} |`);
  const items = new Map<string, number>();
  const measured = new Map<string, number>();
  for (const verdicts of runs) {
    for (const [item, met] of itemsMet(verdicts)) {
      measured.set(item, (measured.get(item) ?? 0) + 1);
      if (met) items.set(item, (items.get(item) ?? 0) + 1);
    }
  }
  const summary = [...measured].map(([item, n]) => `item ${item}: met in ${items.get(item) ?? 0} of ${n} runs`);
  const reasons = [...new Set(runs.flat().flatMap((v) => (v.uncounted === undefined ? [] : [`(✓)/(✗): ${v.uncounted}`])))];
  if (reasons.length > 0) summary.push(...reasons);
  return [header, rule, ...lines, "", ...summary].join("\n");
}

function main(files: readonly string[]): void {
  if (files.length === 0) throw new Error("usage: npx tsx bench/tally.ts RUN.json [RUN.json …] (reports of `npm run bench -- --json FILE`)");
  const reports = files.map((file) => JSON.parse(readFileSync(file, "utf8")) as Report);
  process.stdout.write(`${tally(reports)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
