// README and docs/ are a contract: every link resolves, the README's example answer is what the
// observer answers, the command-line page shows the real --help and every option, and the tools
// page names exactly the tools the server offers. (Golden and library examples run in
// test/integration/docs-*.test.ts.)
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PaneObserver } from "../src/observe/pane.js";
import { OPTIONS, topHelp } from "../src/options.js";
import { link } from "./mcp/connect.js";

const ROOT = resolve(import.meta.dirname, "..");
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");
const pages = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/**
 * Pages the README links that are written on other branches at the same time. Each must not
 * exist yet: once merged, the test fails until the page leaves this list.
 */
const PENDING: string[] = [];

/** Relative link targets of a markdown page (no URLs, no in-page anchors), resolved from the root. */
function links(page: string): string[] {
  const text = read(page).replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? "").replace(/#.*$/, ""))
    .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
    .map((target) => join(dirname(page), target));
}

describe("documentation links", () => {
  it("the README links every docs page", () => {
    const linked = new Set(links("README.md"));
    for (const page of pages.filter((p) => p.startsWith("docs/"))) expect(linked, page).toContain(page);
    for (const page of PENDING) expect(linked).toContain(page);
  });

  it.each(pages)("every relative link of %s resolves to a file", (page) => {
    for (const target of links(page)) {
      if (PENDING.includes(target)) expect(existsSync(join(ROOT, target)), `${target} exists now: remove it from PENDING`).toBe(false);
      else expect(existsSync(join(ROOT, target)), `${page} links ${target}`).toBe(true);
    }
  });
});

interface Shown {
  rows: ({ line: number; text: string } | "…")[];
  raw: string;
  screen: Record<string, unknown>;
}

/** The JSON answers of a page, in order (a block may hold several; `"…"` in rows stands for rows left out). */
function answers(page: string): Shown[] {
  return [...read(page).matchAll(/```json\n(\{ "rows"[\s\S]*?)```/g)].flatMap((m) => (m[1] ?? "").split("\n\n").map((json) => JSON.parse(json) as Shown));
}

describe("the example answers of README and docs/contract.md", () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const pane = new PaneObserver({ identity: { paneId: "%0", panePid: 1, serverPid: 2, serverStart: 3, instance: randomBytes(8) }, cols: 60, rows: 8, key: randomBytes(32) });
  let cursor = "";

  it("the README's \\r progress bar in a 60x8 pane is what the observer answers, and contract.md shows the same", async () => {
    const [shown] = answers("README.md");
    expect(answers("docs/contract.md")[0]).toEqual(shown);
    pane.ingest(encode("# sh progress.sh\r\nfetching\r\n"));
    const before = await pane.read();
    pane.ingest(encode([10, 20, 30, 40, 50].map((p) => `\r\x1b[36mdownloading\x1b[0m ${p}%`).join("") + "\r\n# "));
    const answer = await pane.read(before.cursor);
    cursor = answer.cursor;
    expect({ rows: answer.rows, raw: answer.raw, screen: answer.screen }).toEqual(shown);
  });

  it("contract.md's seq 1 12, typed next in the same pane, is what the observer answers", async () => {
    const shown = answers("docs/contract.md")[1];
    pane.ingest(encode(`seq 1 12\r\n${Array.from({ length: 12 }, (_, i) => `${i + 1}\r\n`).join("")}# `));
    const answer = await pane.read(cursor);
    const rows = shown?.rows ?? [];
    const gap = rows.indexOf("…");
    expect(answer.rows.slice(0, gap)).toEqual(rows.slice(0, gap));
    expect(answer.rows.slice(answer.rows.length - (rows.length - gap - 1))).toEqual(rows.slice(gap + 1));
    expect(answer.rows.map((r) => r.line)).toEqual(Array.from({ length: 14 }, (_, i) => i + 3));
    expect(answer.raw).toBe(shown?.raw);
    expect(answer.screen).toMatchObject(shown?.screen ?? { missing: true });
  });
});

describe("docs/cli.md", () => {
  const page = read("docs/cli.md");

  it("shows exactly what panescope --help prints", () => {
    expect(/`panescope --help`:\n\n```text\n([\s\S]*?)\n```/.exec(page)?.[1]).toBe(topHelp());
  });

  it("has a table row for every flag, with its short form and environment variable", () => {
    for (const [name, spec] of Object.entries(OPTIONS)) {
      const row = page.split("\n").find((line) => line.startsWith("|") && line.includes(`\`--${name}`));
      expect(row, `--${name}`).toBeDefined();
      if (spec.short !== undefined) expect(row).toContain(`\`-${spec.short}`);
      if (spec.env !== undefined) expect(row).toContain(`\`${spec.env}\``);
    }
  });
});

describe("docs/tools.md", () => {
  it("names exactly the tools the server offers", async () => {
    const linked = await link();
    try {
      const { tools } = await linked.client.listTools();
      const table = [...read("docs/tools.md").matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
      expect(table.sort()).toEqual(tools.map((t) => t.name).sort());
    } finally {
      await linked.close();
    }
  });
});
