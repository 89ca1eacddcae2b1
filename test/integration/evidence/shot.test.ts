// SVG screenshots of a real pane match tmux cell by cell: capture_pane {format: "svg"} of vim, htop
// and a progress bar, parsed back into cells (text, colours, attributes) and compared with what
// capture-pane -e shows; format "png" answers a PNG image; the library draws the same SVG.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { screenToSvg } from "../../../src/index.js";
import { cellDifferences, cellsOfSnapshot, cellsOfSvg } from "../../support/svg-cells.js";
import { link, type Linked } from "../../support/mcp-link.js";
import { killAllServers, startServer, waitFor, type TestServer } from "../../support/tmux-fixture.js";
import { PROGRESS_BAR, shows, tmuxScreen, vimWithLine } from "../../support/tmux-screen.js";
import { program } from "../../support/programs.js";

const htop = program("htop");

const linked: Linked[] = [];
afterEach(async () => {
  await Promise.all(linked.splice(0).map((l) => l.close()));
  await killAllServers();
});

const structured = (r: CallToolResult) => r.structuredContent as { svg?: string; rows: string[] };


/** Waits until the screenshot shows what tmux shows, cell by cell (the replica catches up first). */
async function svgMatchesTmux(test: TestServer, mcp: Linked, pane: string): Promise<string> {
  let svg = "";
  let last: string[] = [];
  await waitFor(
    async () => {
      svg = structured(await mcp.call("capture_pane", { paneId: pane, format: "svg" })).svg ?? "";
      last = cellDifferences(cellsOfSvg(svg), cellsOfSnapshot(await tmuxScreen(test, pane)));
      return last.length === 0;
    },
    20_000,
    "the SVG to show tmux's screen",
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${last.slice(0, 20).join("\n")}`);
  });
  return svg;
}

async function paneWith(cols: number, rows: number): Promise<{ test: TestServer; mcp: Linked; pane: string }> {
  const test = await startServer({ cols, rows, command: "sh", env: { PS1: "$ " } });
  const mcp = await link(test.server);
  linked.push(mcp);
  const [pane = ""] = await test.run(["display-message", "-p", "-t", "main", "#{pane_id}"]);
  return { test, mcp, pane };
}

describe("capture_pane format svg", () => {
  it("vim with syntax colours and a wide character matches tmux cell by cell, cursor drawn", { timeout: 60_000 }, async () => {
    const { test, mcp, pane } = await paneWith(80, 24);
    await vimWithLine(test, pane);
    const svg = await svgMatchesTmux(test, mcp, pane);
    expect(svg).toContain('class="cursor"');
    console.log(`vim 80×24 as SVG: ${Buffer.byteLength(svg)} bytes`);
  });

  it.skipIf(htop.skip)("htop's meters, header and selected row match tmux cell by cell", { timeout: 60_000 }, async () => {
    htop.require();
    const { test, mcp, pane } = await paneWith(100, 30);
    await test.run(["send-keys", "-t", pane, "-l", "htop -d 600\n"]);
    await shows(test, pane, "F10");
    const svg = await svgMatchesTmux(test, mcp, pane);
    expect(svg).not.toContain('class="cursor"'); // htop hides it
    await test.run(["send-keys", "-t", pane, "q"]);
  });

  it("a finished progress bar matches tmux cell by cell", { timeout: 60_000 }, async () => {
    const { test, mcp, pane } = await paneWith(60, 8);
    await test.run(["send-keys", "-t", pane, "-l", PROGRESS_BAR]);
    await shows(test, pane, "done");
    const svg = await svgMatchesTmux(test, mcp, pane);
    expect(svg).toContain('fill="#06989a"');
  });

  it("format png answers a PNG image beside the text, and the library draws the same SVG", { timeout: 60_000 }, async () => {
    const { test, mcp, pane } = await paneWith(40, 6);
    await test.run(["send-keys", "-t", pane, "-l", "printf '\\033[31mred\\033[0m\\n'\n"]);
    await shows(test, pane, "red");
    const answer = await mcp.call("capture_pane", { paneId: pane, format: "png" });
    const image = answer.content.find((c) => c.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(Buffer.from(String(image?.data), "base64").subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const svg = structured(await mcp.call("capture_pane", { paneId: pane, format: "svg" })).svg;
    const observer = await mcp.hub.observer(pane);
    expect(screenToSvg(await observer.snapshot(), { widthOf: observer.widthPolicy?.widthOf })).toBe(svg);
  });
});
