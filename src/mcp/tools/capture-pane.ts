// capture_pane: the rendered screen of a pane now (optionally scrollback above it, optionally with
// colours as SGR escapes), plus a cursor to continue with capture_since.
import { z } from "zod";
import { screenToSvg } from "../../evidence/svg.js";
import type { PaneObserver } from "../../observe/pane/observer.js";
import { expandTabs } from "../../tmux/capture.js";
import { ANNOTATIONS, TITLES, type ToolRegistrar } from "../context.js";
import { ending, fenceRows, header, size } from "../render.js";
import { fail, ok } from "../results.js";
import * as s from "../schemas.js";

const MAX_HISTORY = 10_000;

const DESCRIPTION = `A pane's screen now, with scrollback (history), SGR colours (colors) or as a picture (format). Rows fenced N| (untrusted), and a cursor for capture_since.`;

/** The screen as an SVG document, or as a PNG image (rasterized from the same SVG). */
async function pictureOf(observer: PaneObserver, format: "svg" | "png"): Promise<{ svg?: string; png?: Uint8Array }> {
  const svg = screenToSvg(await observer.snapshot(), { widthOf: observer.widthPolicy?.widthOf });
  if (format === "svg") return { svg };
  const { svgToPng } = await import("../../evidence/png.js");
  return { png: await svgToPng(svg) };
}

/** Blank rows at the bottom are not listed (the header's size says how many rows there are). */
function lastNonBlank(rows: readonly string[]): number {
  let y = rows.length - 1;
  while (y >= 0 && rows[y] === "") y--;
  return y;
}

export const registerCapturePane: ToolRegistrar = (mcp, ctx) => {
  mcp.registerTool(
    "capture_pane",
    {
      title: TITLES.capture_pane,
      description: DESCRIPTION,
      inputSchema: {
        paneId: s.paneId.optional().describe("Omit: tmux's active pane."),
        history: z
          .number()
          .int("history must be a whole number of lines")
          .min(0, "history cannot be negative")
          .max(MAX_HISTORY, `history is at most ${MAX_HISTORY} lines`)
          .optional()
          .describe("Scrollback lines above it."),
        colors: z.boolean().optional().describe("SGR rows in ansi."),
        format: z.enum(["svg", "png"]).optional().describe("svg text, png image."),
      },
      outputSchema: s.part({
        paneId: z.string(),
        cursor: z.string(),
        screen: s.object,
        rows: z.array(z.string()),
        history: z.array(z.string()),
        ansi: z.array(z.string()),
        // svg (format "svg") and exit (a closed pane's, as capture_since's) are answered but not
        // listed: the tool list's budget (test/mcp/tool-list.test.ts).
        closed: z.boolean(),
      }),
      annotations: ANNOTATIONS.capture_pane,
    },
    async (input) => {
      try {
        const paneId = await ctx.hub.resolvePane(input.paneId, undefined);
        const observer = await ctx.hub.observer(paneId);
        // Cursor first: anything printed after it shows up again in capture_since, never goes missing.
        const { cursor, exit } = await observer.read(undefined, { maxLines: 0 });
        const text = await observer.screenText(input.history ?? 0);
        // The replica keeps a bounded scrollback: more history than it holds is read from tmux's own.
        if (input.history !== undefined && text.history.length < input.history && !text.screen.alternate) {
          // With no history at all, tmux clamps -S and -E to the screen and prints its first row:
          // its size, asked in the same command list, says how many lines are history.
          const [size, ...lines] = (await ctx.server.runMany([["display-message", "-p", "-t", paneId, "#{history_size}"], ["capture-pane", "-p", "-S", `-${input.history}`, "-E", "-1", "-t", paneId]]).catch(() => undefined)) ?? [];
          const kept = Number(size) > 0 ? lines : [];
          if (kept.length > text.history.length) text.history = kept.map((line) => expandTabs(line).replace(/ +$/, ""));
        }
        const ansi = input.colors ? await observer.screenAnsi() : undefined;
        const picture = input.format ? await pictureOf(observer, input.format) : undefined;
        const structured = {
          paneId,
          cursor,
          screen: text.screen,
          rows: text.rows,
          history: text.history,
          ...(ansi ? { ansi } : {}),
          ...(picture?.svg ? { svg: picture.svg } : {}),
          closed: observer.closed,
          ...(observer.closed && exit ? { exit } : {}),
        };
        // Fenced as capture_since's text: history rows (negative), then the screen; unlisted rows are blank.
        const shown = ansi ?? text.rows;
        const rows = [
          ...text.history.map((line, i) => ({ row: i - text.history.length, text: line })),
          ...shown.slice(0, lastNonBlank(text.rows) + 1).map((line, row) => ({ row, text: line })),
        ];
        const out = [header(cursor, paneId, text.screen, [size(text.screen)]), ...fenceRows(rows)];
        // As capture_since and wait_for say it: how the program ended, when tmux said.
        if (observer.closed) out.push(ending(exit));
        if (picture?.svg) out.push(picture.svg);
        const answer = ok(structured, out.join("\n"));
        if (picture?.png) answer.content.unshift({ type: "image", data: Buffer.from(picture.png).toString("base64"), mimeType: "image/png" });
        return answer;
      } catch (error) {
        return fail(error, ctx.failContext);
      }
    },
  );
};
