// Pure formatting of bench results: ratios, percentiles, the printed table and the JSON document.
// No timers, no processes: the smoke test (test/bench.test.ts) exercises exactly this file.

export type Unit = "ms" | "MB/s" | "KiB" | "MiB" | "B" | "count" | "% of a core";

/** One line of the table: a panescope figure beside its baseline, measured in the same run. */
export interface Result {
  /** Figure number and variant, e.g. "1a". */
  id: string;
  label: string;
  value: number;
  baseline: number;
  baselineLabel: string;
  unit: Unit;
  /** Which direction is good for the panescope value. */
  better: "lower" | "higher";
  note?: string;
  /** Figures a goal reads beside the two compared (bench/goals.ts): 5c's p50s, 14a's pane count. */
  extra?: Record<string, number>;
}

/** value / baseline; undefined when the baseline is zero or either side is not a finite number. */
export function ratio(value: number, baseline: number): number | undefined {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return undefined;
  return value / baseline;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return "—";
  switch (unit) {
    case "ms":
      return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ms`;
    case "MB/s":
      return `${value.toFixed(1)} MB/s`;
    case "KiB":
      return `${value.toFixed(0)} KiB`;
    case "MiB":
      return `${value.toFixed(1)} MiB`;
    case "B":
      return value >= 10_000 ? `${(value / 1024).toFixed(1)} KiB` : `${Math.round(value)} B`;
    case "count":
      return String(Math.round(value));
    case "% of a core":
      return `${value.toFixed(2)} % of a core`;
  }
}

export function formatRatio(value: number | undefined): string {
  if (value === undefined) return "—";
  return `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)}×`;
}

// The ratio first: it is the figure that holds from one machine (and hour) to another; the
// milliseconds beside it say how fast this machine was when it was measured.
const HEADER = ["#", "figure", "ratio", "better", "panescope", "baseline", "note"] as const;

/** The results as a Markdown table (it reads as plain text on a terminal too). */
export function formatTable(results: readonly Result[]): string {
  const rows = results.map((r) => [
    r.id,
    r.label,
    formatRatio(ratio(r.value, r.baseline)),
    r.better === "lower" ? "lower" : "higher",
    formatValue(r.value, r.unit),
    `${formatValue(r.baseline, r.unit)} (${r.baselineLabel})`,
    r.note ?? "",
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(HEADER), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export interface Machine {
  date: string;
  cpu: string;
  nproc: number;
  memTotal: string;
  node: string;
  tmux: string;
}

export interface Report {
  machine: Machine;
  quick: boolean;
  seconds: number;
  results: Array<Result & { ratio: number | null }>;
}

/** The machine-readable form written by --json: the same results plus each ratio. */
export function toReport(machine: Machine, quick: boolean, seconds: number, results: readonly Result[]): Report {
  return { machine, quick, seconds, results: results.map((r) => ({ ...r, ratio: ratio(r.value, r.baseline) ?? null })) };
}

export function formatMachine(m: Machine): string {
  return `${m.date} · ${m.cpu} · nproc ${m.nproc} · ${m.memTotal} RAM · node ${m.node} · ${m.tmux}`;
}

export interface Options {
  quick: boolean;
  /** undefined: no JSON; "" or "-": JSON on stdout; else a file path. */
  json: string | undefined;
  /** Run only these figure numbers (e.g. ["1", "6"]); empty = all. */
  only: string[];
}

/** Parses `--quick`, `--json [file]`, `--only 1,3`. Unknown flags are an error. */
export function parseArgs(argv: readonly string[]): Options {
  const options: Options = { quick: false, json: undefined, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") options.quick = true;
    else if (arg === "--json") {
      const next = argv[i + 1];
      options.json = next !== undefined && !next.startsWith("--") ? (i++, next) : "-";
    } else if (arg === "--only") {
      options.only = (argv[++i] ?? "").split(",").filter((s) => s !== "");
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}: use --quick, --json [file], --only 1,2`);
  }
  return options;
}
