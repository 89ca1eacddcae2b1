// The report page: self-contained (no URL it could fetch), everything from the screens escaped,
// highlighted cells only on failing rows, and frames a script can step through.
import { describe, expect, it } from "vitest";
import { castFrames, sampleEvents, screenHtml } from "../../../src/golden/report/frames.js";
import { reportPage, type ReportItem } from "../../../src/golden/report/page.js";
import type { ScreenSnapshot } from "../../../src/observe/emulator/snapshot.js";

const snap = (lines: string[]): ScreenSnapshot => ({ cols: 10, rows: lines.length, cursorX: 0, cursorY: 0, cursorVisible: false, alternate: false, lines, styles: [] });

const item: ReportItem = {
  tape: "golden/menu.tape",
  snapshot: "menu",
  where: "golden/menu.tape:5",
  statement: "snapshot menu",
  message: "does not match\n-│<two>│\n+│<TWO>│",
  expected: snap(["<script>", "> two"]),
  actual: snap(["<script>", "> TWO"]),
  raw: "</pre><img src=x onerror=alert(1)>",
  recording: { file: "menu.cast", frames: [{ t: 0, html: "" }, { t: 0.5, html: "&lt;b&gt;" }] },
};

describe("reportPage", () => {
  const page = reportPage([item], { passed: 1, failed: 1, when: "2026-12-01T19:00:00.000Z" });

  it("loads nothing from anywhere: no src or href but data: and the recording beside it", () => {
    expect(page).toContain(`content="default-src 'none';`);
    const urls = [...page.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls).toEqual(["menu.cast"]);
    expect(page.replaceAll('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(/https?:\/\//);
  });

  it("escapes what the program printed wherever it shows", () => {
    expect(page).not.toContain("<img src=x");
    expect(page).toContain("&lt;script&gt;");
    expect(page).toContain("&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(page.match(/<script[ >]/g)).toHaveLength(2); // the frames' JSON and the player
  });

  it("highlights the differing cells on both sides and says how many differ", () => {
    expect(page.match(/class="diff"/g)).toHaveLength(2);
    expect(page).toContain('data-differing-cells="3"');
  });

  it("says so when every snapshot matched", () => {
    expect(reportPage([], { passed: 2, failed: 0, when: "now" })).toContain("Every snapshot matched its golden.");
  });
});

describe("frames", () => {
  it("samples a long recording evenly and always keeps its last event", () => {
    expect(sampleEvents(3, 5)).toEqual([0, 1, 2]);
    const picked = sampleEvents(1000, 10);
    expect(picked).toHaveLength(10);
    expect(picked.at(-1)).toBe(999);
    expect(new Set(picked).size).toBe(10);
  });

  it("replays a cast into frames of coloured, escaped rows", async () => {
    const frames = await castFrames({ header: { version: 2, width: 6, height: 2 }, events: [[0.1, "o", "\u001b[31m<red>\u001b[0m"], [0.2, "r", "4x2"], [0.3, "o", "\r\nok"]] });
    expect(frames.map((f) => f.t)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(frames[1]?.html.split("\n")[0]).toMatch(/^<span style="color:#[0-9a-f]{6}">&lt;red&gt;<\/span> $/);
    expect(frames[3]?.html.split("\n")[1]).toBe("ok  ");
  });

  it("draws struck-through text struck through, and dims a dim glyph but not its background", async () => {
    const [, frame] = await castFrames({ header: { version: 2, width: 8, height: 1 }, events: [[0.1, "o", "\u001b[9;4mst\u001b[0m \u001b[2;41mdim\u001b[0m"]] });
    expect(frame?.html).toBe('<span style="text-decoration:underline line-through">st</span> <span style="color:#ffffff80;background:#cc0000">dim</span>  ');
  });

  it("draws default cells as plain text", () => {
    expect(screenHtml(snap(["a&b"]))).toBe("a&amp;b       ");
  });
});
