// The golden report in a real browser (Debian's chromium, driven headless by playwright-core; no
// browser download): a run with one deliberately broken tape writes the page, whose highlighted
// cells sit exactly on the changed cells and nowhere else, whose recording player steps, and which
// loads nothing but itself. Skipped, loudly, only where chromium is missing and CI is not set.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCast } from "../../../src/evidence/cast.js";
import { replayCast } from "../../../src/evidence/replay.js";
import { main } from "../../../src/golden/main.js";
import { parseCommand } from "../../../src/options.js";
import { captureIo, tapeDir } from "../../support/golden-tapes.js";

const CHROMIUM = process.env.PANESCOPE_CHROMIUM ?? "/usr/bin/chromium";
const found = existsSync(CHROMIUM);
if (!found && process.env.CI === undefined) {
  console.warn(`\n*** SKIPPED the golden report's browser test: no chromium at ${CHROMIUM} (apt-get install chromium, or set PANESCOPE_CHROMIUM). CI never skips it. ***\n`);
}

/** The menu a tape draws: a green title, two items, the cursor hidden (curs_set(0)). */
const menu = (item: string): string =>
  ["size 30x6", "colors on", `run ["sh", "-c", "tput civis; printf '\\\\033[1;32mmenu\\\\033[0m\\\\n  one\\\\n> ${item}\\\\n'; read x"]`, `wait "${item}"`, "snapshot menu", ""].join("\n");

async function golden(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  const io = captureIo({ CI: "", ...env });
  const command = parseCommand(["golden", ...args], io.env);
  if (command.kind !== "golden") throw new Error(command.kind);
  const code = await main(command.options, io);
  return { code, text: io.text() };
}

describe.skipIf(!found && process.env.CI === undefined)("the golden report in chromium", () => {
  let dir = "";
  let shots = "";
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!found) throw new Error(`CI is set but there is no chromium at ${CHROMIUM}: .ci/run installs Debian's chromium package`);
    dir = await tapeDir({ "tapes/good.tape": menu("two"), "tapes/broken.tape": menu("two") });
    shots = await mkdtemp(join(tmpdir(), "panescope-report-shot-"));
    const first = await golden([join(dir, "tapes")]);
    expect(first.code, first.text).toBe(0);
    // The deliberate break: the program now draws TWO where the golden has two.
    await writeFile(join(dir, "tapes/broken.tape"), menu("TWO"));
    // A container's /dev/shm is small, and root needs --no-sandbox (CI runs as root).
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--disable-dev-shm-usage", ...(process.getuid?.() === 0 ? ["--no-sandbox"] : [])] });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([dir, shots].filter((d) => d !== "").map((d) => rm(d, { recursive: true, force: true })));
  });

  it("writes the page and the broken tape's recording, which replays to the screen it failed on", async () => {
    const run = await golden(["--report", join(dir, "report"), join(dir, "tapes")]);
    expect(run.code, run.text).toBe(1);
    expect(run.text).toMatch(/^report: .*index\.html \(1 failure, 1 recording \(.*broken\.cast\)\)$/m);
    const final = await replayCast(parseCast(await readFile(join(dir, "report/broken.cast"), "utf8")));
    expect(final.lines.slice(0, 3)).toEqual(["menu", "  one", "> TWO"]);
  });

  it("highlights exactly the changed cells on both screens, plays the recording, and fetches nothing", async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("pageerror", (error) => problems.push(String(error)));
    const url = pathToFileURL(join(dir, "report/index.html")).href;
    await page.goto(url);

    expect(await page.locator("section.item").count()).toBe(1);
    expect(await page.locator("section.item h2").innerText()).toContain("broken.tape: snapshot menu");
    for (const side of ["expected", "actual"]) {
      const svg = page.locator(`figure[data-side="${side}"] svg`);
      const cols = Number(await svg.getAttribute("data-cols"));
      const rows = Number(await svg.getAttribute("data-rows"));
      const cell = { w: Number(await svg.getAttribute("width")) / cols, h: Number(await svg.getAttribute("height")) / rows };
      const marks = await svg.locator("rect.diff").evaluateAll((rects) => rects.map((r) => ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a)))));
      const cells = marks.map(([x = 0, y = 0, w = 0, h = 0]) => ({ row: Math.round(y / cell.h), start: Math.round(x / cell.w), end: Math.round((x + w) / cell.w), rows: Math.round(h / cell.h) }));
      // "> two" → "> TWO": row 2, columns 2 to 4; nothing else on either screen.
      expect(cells, side).toEqual([{ row: 2, start: 2, end: 5, rows: 1 }]);
      expect(await svg.textContent()).toContain(side === "expected" ? "> two" : "> TWO");
    }

    const player = page.locator(".player");
    expect(await player.locator(".term").innerText()).toContain("> TWO");
    // Scripts in the page are strings here: the tests' TypeScript has no DOM types.
    await page.evaluate(`{ const scrub = document.querySelector(".scrub"); scrub.value = "0"; scrub.dispatchEvent(new Event("input")); }`);
    expect(await player.getAttribute("data-frame")).toBe("0");
    expect((await player.locator(".term").innerText()).trim()).toBe("");
    const last = Number(await player.locator(".scrub").getAttribute("max"));
    expect(last).toBeGreaterThan(0);
    await player.locator("button.play").click();
    type Page = { document: { querySelector(selector: string): { dataset: Record<string, string> } } };
    await page.waitForFunction((n) => (globalThis as unknown as Page).document.querySelector(".player").dataset.frame === String(n), last);
    expect(await player.locator(".term").innerText()).toContain("> TWO");

    const shot = join(shots, "report.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect((await stat(shot)).size).toBeGreaterThan(1000);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
