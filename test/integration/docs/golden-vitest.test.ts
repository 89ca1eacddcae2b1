// docs/golden.md "From vitest": the example runs here as written there, with two substitutions
// (checked by the last test): the import path (the source instead of the package name) and the
// golden folder (a temporary one). .ci/pack-check.mjs runs it verbatim against the packed package.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { forgetGoldens } from "../../support/golden-counts.js";

const goldens = await mkdtemp(join(tmpdir(), "panescope-docs-vitest-"));
afterAll(() => rm(goldens, { recursive: true, force: true }));
// The example writes a missing golden, which CI never does: this file is its first run.
process.env.CI = "";
process.env.PANESCOPE_UPDATE = "";

// --- example (docs/golden.md) ---
import { afterEach, it } from "vitest";
import { expectGolden, startPaneSession, type PaneSession } from "../../../src/golden/index.js";

let session: PaneSession | undefined;
afterEach(async () => {
  await session?.close(); // kills the private tmux server; safe twice
});

it("greets", { timeout: 15_000 }, async () => {
  session = await startPaneSession({ size: { cols: 40, rows: 5 }, command: ["sh"] });
  await session.waitFor({ kind: "text", text: "$" }, 5000); // the prompt: typed earlier, keys echo before it
  await session.typeText("echo hello; echo took 12ms\n");
  await session.waitFor({ kind: "text", text: "took 12ms\n$" }, 5000);
  await expectGolden(session, "greeting", {
    dir: goldens, // → test/__goldens__/greet/greeting.golden
    suite: "greet",
    masks: [{ pattern: /\d+ms/, placeholder: "<ms>" }],
  });
});
// --- end of example ---

it("the example pinned the masked screen in a golden", async () => {
  const golden = await readFile(join(goldens, "greet/greeting.golden"), "utf8");
  expect(golden).toContain("│took <ms>                               │");
  expect(golden).toContain("│$ echo hello; echo took <ms>            │");
  forgetGoldens("greets");
});

it("the example above is the page's, word for word but for the import path and the golden folder", async () => {
  const page = await readFile(new URL("../../../docs/golden.md", import.meta.url), "utf8");
  const example = /## From vitest[^\n]*\n\n```ts\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
  const self = await readFile(import.meta.filename, "utf8");
  const ours = /\/\/ --- example \(docs\/golden\.md\) ---\n([\s\S]*?)\/\/ --- end of example ---/.exec(self)?.[1] ?? "";
  expect(example).toContain("expectGolden(session");
  expect(ours.replace('"../../../src/golden/index.js"', '"panescope/golden"').replace("dir: goldens,", 'dir: "test/__goldens__",')).toBe(example);
});
