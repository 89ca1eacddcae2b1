// Makes docs/golden-report.png, the real golden report shown in docs/golden.md: a tape whose
// program changed since its golden was written, run with --report, opened in Debian's chromium.
// Run after `npm run build`: node scripts/golden-report-screenshot.mjs [path/to/chromium]
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "panescope-report-shot-"));
const tape = (price) =>
  [
    "size 36x7",
    "colors on",
    `run ["sh", "-c", "tput civis; printf '\\\\033[1;36m  Order\\\\033[0m\\\\n\\\\n  coffee     \\\\033[33m${price}\\\\033[0m\\\\n  cake       \\\\033[33m3.20\\\\033[0m\\\\n\\\\n\\\\033[7m  pay  \\\\033[0m  cancel\\\\n'; read x"]`,
    'wait "cancel"',
    "snapshot order",
    "",
  ].join("\n");
const golden = (...args) => {
  try {
    execFileSync(process.execPath, [join(root, "dist/cli.js"), "golden", ...args], { cwd: dir, env: { ...process.env, CI: "" }, stdio: "inherit" });
  } catch {
    // The second run fails on purpose.
  }
};
try {
  mkdirSync(join(dir, "golden"));
  writeFileSync(join(dir, "golden/order.tape"), tape("2.50"));
  golden("golden");
  writeFileSync(join(dir, "golden/order.tape"), tape("2.80"));
  golden("--report", "report", "golden");
  const browser = await chromium.launch({ executablePath: process.argv[2] ?? "/usr/bin/chromium", args: ["--disable-dev-shm-usage", ...(process.getuid?.() === 0 ? ["--no-sandbox"] : [])] });
  const page = await browser.newPage({ viewport: { width: 760, height: 600 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(join(dir, "report/index.html")).href);
  await page.locator("section.item").screenshot({ path: join(root, "docs/golden-report.png") });
  await browser.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
