// docs/evidence.md shows a real recording and the screenshot of where it ends: the excerpt is the
// committed cast's own lines, and the committed SVG is what that cast replays to, drawn today.
// PANESCOPE_UPDATE_DOCS=1 rewrites the SVG after a deliberate change to the renderer.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCast } from "../../src/evidence/cast.js";
import { replayCast } from "../../src/evidence/replay.js";
import { screenToSvg } from "../../src/evidence/svg.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CAST = join(ROOT, "docs/evidence/progress.cast");
const SVG = join(ROOT, "docs/evidence/progress.svg");

describe("docs/evidence.md", () => {
  it("the cast excerpt is lines of the committed recording", () => {
    const page = readFileSync(join(ROOT, "docs/evidence.md"), "utf8");
    const excerpt = /```json\n(\{"version":2[\s\S]*?)\n```/.exec(page)?.[1] ?? "";
    const lines = new Set(readFileSync(CAST, "utf8").split("\n"));
    const shown = excerpt.split("\n").filter((line) => line !== "…");
    expect(shown.length).toBeGreaterThan(3);
    for (const line of shown) expect(lines, line).toContain(line);
  });

  it("the committed SVG is the screen the recording replays to", async () => {
    const svg = screenToSvg(await replayCast(parseCast(readFileSync(CAST, "utf8"))));
    if (process.env.PANESCOPE_UPDATE_DOCS === "1") writeFileSync(SVG, svg);
    expect(readFileSync(SVG, "utf8"), "run with PANESCOPE_UPDATE_DOCS=1 after a deliberate change").toBe(svg);
  });
});
