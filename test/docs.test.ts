// README and docs/ are a contract: every link resolves, the README's example answer is what the
// observer answers, the command-line page shows the real --help and every option, and the tools
// page names exactly the tools the server offers. (Golden and library examples run in
// test/integration/docs/*.test.ts.)
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDelta, type View } from "../src/mcp/render.js";
import { PaneObserver } from "../src/observe/pane.js";
import { OPTIONS, topHelp } from "../src/options.js";
import { link } from "./support/mcp-link.js";

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

/** The ```text blocks of a page that follow `heading`, or every one. */
function textBlocks(page: string, heading = ""): string[] {
  const text = read(page);
  return [...text.slice(text.indexOf(heading)).matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

/** Cursor tokens differ on every run (random keys): compare answers with them masked. */
const masked = (text: string): string => text.replace(/cursor=[A-Za-z0-9_-]+/g, "cursor=TOKEN").replace(/ +$/gm, "").trimEnd();

describe("the text answers of docs/tools.md and docs/contract.md", () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const observer = (paneId: string) =>
    new PaneObserver({ identity: { paneId, panePid: 1, serverPid: 2, serverStart: 3, instance: randomBytes(8) }, cols: 60, rows: 8, key: randomBytes(32) });

  it("tools.md's exchange is what capture_since's text says, call after call, each passing the cursor before it", async () => {
    const [block = ""] = textBlocks("docs/tools.md", "## A real exchange");
    const steps = block.split(/^→ /m).slice(1).map((step) => {
      const [call = "", ...answer] = step.trimEnd().split("\n");
      return { args: JSON.parse(call.replace(/^capture_since /, "")) as { cursor?: string; view?: View }, answer: answer.join("\n") };
    });
    // What the pane printed before each call.
    const printed = [
      "# sh progress.sh\r\nfetching\r\n",
      [10, 20, 30, 40, 50].map((p) => `\r\x1b[36mdownloading\x1b[0m ${p}%`).join("") + "\r\n# ",
      "seq 1 3\r\n1\r\n2\r\n3\r\n# seq 4 5\r\n4\r\n5\r\n# ",
      "",
      "sh fetch.sh\r\nconnecting\r\x1b[Kconnected\r\n# ",
    ];
    expect(steps).toHaveLength(printed.length);
    // The README shows the progress bar's answer as text too.
    expect(masked(textBlocks("README.md")[0] ?? "")).toBe(masked(steps[1]?.answer ?? "missing"));
    const pane = observer("%0");
    let cursor: string | undefined;
    let shown: string | undefined;
    for (const [i, step] of steps.entries()) {
      pane.ingest(encode(printed[i] ?? ""));
      if (i > 0) expect(step.args.cursor, `call ${i + 1} passes the cursor of the answer before it`).toBe(shown);
      const delta = await pane.read(cursor);
      const text = renderDelta(delta, { ...(cursor === undefined ? {} : { given: cursor }), ...(step.args.view ? { view: step.args.view } : {}) });
      expect(masked(text), `answer ${i + 1}`).toBe(masked(step.answer));
      cursor = delta.cursor;
      shown = /^cursor=(\S+)/.exec(step.answer)?.[1] ?? shown;
    }
  });

  it("contract.md's chat above a fixed status line sends only the new messages; its second example is tools.md's last answer", async () => {
    const [chat = "", both = ""] = textBlocks("docs/contract.md", "## The text answer");
    const pane = observer("%1");
    const message = (n: number) => `\x1b[6;1H\n<${n % 2 ? "bob" : "alice"}> message ${n}\x1b[8;3H`;
    pane.ingest(encode(`\x1b[H\x1b[2J\x1b[7;1H\x1b[7m #general · 2 users \x1b[0m\x1b[8;1H> \x1b[1;6r${[1, 2, 3, 4, 5, 6].map(message).join("")}`));
    const before = await pane.read();
    pane.ingest(encode([7, 8].map(message).join("")));
    expect(masked(renderDelta(await pane.read(before.cursor), { given: before.cursor }))).toBe(masked(chat));
    const exchange = textBlocks("docs/tools.md", "## A real exchange")[0] ?? "";
    expect(masked(exchange)).toContain(masked(both));
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
