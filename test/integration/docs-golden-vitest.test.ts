// The README's vitest example, kept running (README is a contract): only the import path and the
// golden folder (a temporary one) differ from the text there.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { expectGolden, startPaneSession, type PaneSession } from "../../src/golden/index.js";

const dir = await mkdtemp(join(tmpdir(), "panescope-golden-readme-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

let session: PaneSession | undefined;
afterEach(async () => {
  await session?.close();
});

it("the README example greets, and pins the screen in a golden", async () => {
  session = await startPaneSession({ size: { cols: 40, rows: 5 }, command: ["sh"] });
  await session.typeText("echo hello; echo took 12ms\n");
  await session.waitFor({ kind: "text", text: "took 12ms\n$" }, 5000);
  await expectGolden(session, "greeting", { dir, suite: "greet", masks: [{ pattern: /\d+ms/, placeholder: "<ms>" }], ci: false });
  const golden = await readFile(join(dir, "greet/greeting.golden"), "utf8");
  expect(golden).toContain("│took <ms>                               │");
});
