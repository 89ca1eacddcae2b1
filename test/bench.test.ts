// The bench runner's pure parts: ratios, percentiles, the table and the JSON report. No timing here:
// speed is measured by `npm run bench`, never asserted in tests.
import { describe, expect, it } from "vitest";
import { formatRatio, formatTable, formatValue, parseArgs, percentile, ratio, toReport, type Machine, type Result } from "../bench/lib/format.js";

const machine: Machine = { date: "2026-01-01 00:00 UTC", cpu: "Test CPU", nproc: 2, memTotal: "1.0 GiB", node: "v20.0.0", tmux: "tmux 3.3a" };

const results: Result[] = [
  { id: "1a", label: "flood ingest", value: 4.5, baseline: 5, baselineLabel: "decode-only reader", unit: "MB/s", better: "higher", note: "16.9 MB" },
  { id: "2a", label: "idle read p50", value: 1.25, baseline: 0, baselineLabel: "capture-pane spawn", unit: "ms", better: "lower" },
];

describe("bench formatting", () => {
  it("a ratio is panescope over baseline, and absent when the baseline is zero", () => {
    expect(ratio(4.5, 5)).toBeCloseTo(0.9);
    expect(ratio(1, 0)).toBeUndefined();
    expect(ratio(Number.NaN, 1)).toBeUndefined();
    expect(formatRatio(0.9)).toBe("0.90×");
    expect(formatRatio(0.052)).toBe("0.052×");
    expect(formatRatio(undefined)).toBe("—");
  });

  it("percentiles use the nearest rank of the sorted samples", () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });

  it("values carry their unit, and bytes switch to KiB when large", () => {
    expect(formatValue(1.234, "ms")).toBe("1.23 ms");
    expect(formatValue(123.4, "ms")).toBe("123 ms");
    expect(formatValue(640, "B")).toBe("640 B");
    expect(formatValue(20480, "B")).toBe("20.0 KiB");
    expect(formatValue(Number.NaN, "MiB")).toBe("—");
  });

  it("the table has one aligned row per result, the ratio and which way is better first", () => {
    const lines = formatTable(results).split("\n");
    expect(lines).toHaveLength(4);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(lines[0]).toMatch(/^\| # +\| figure +\| ratio +\| better +\| panescope +\| baseline +\| note +\|$/);
    expect(lines[2]).toContain("| 4.5 MB/s ");
    expect(lines[2]).toContain("| 5.0 MB/s (decode-only reader) ");
    expect(lines[2]).toContain("| 0.90× ");
    expect(lines[3]).toContain("| — ");
  });

  it("the JSON report holds the machine, the results and each ratio (null without a baseline)", () => {
    const report = toReport(machine, true, 12.5, results);
    expect(report.machine.nproc).toBe(2);
    expect(report.quick).toBe(true);
    expect(report.results.map((r) => r.ratio)).toEqual([0.9, null]);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("arguments: --quick, --json with or without a file, --only a list; unknown flags are refused", () => {
    expect(parseArgs([])).toEqual({ quick: false, json: undefined, only: [] });
    expect(parseArgs(["--quick", "--json"])).toEqual({ quick: true, json: "-", only: [] });
    expect(parseArgs(["--json", "out.json", "--only", "1,6"])).toEqual({ quick: false, json: "out.json", only: ["1", "6"] });
    expect(() => parseArgs(["--fast"])).toThrow(/unknown argument/);
  });
});
