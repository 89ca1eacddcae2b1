// An SVG screenshot rasterized to PNG for clients that read images, not SVG (multimodal models).
// resvg (@resvg/resvg-js) is an optional dependency: prebuilt binaries per platform from the npm
// registry, no install scripts; loaded at the first PNG, so nothing else pays for it. Required, not
// imported: the MCP server's face is a script (src/code-cache.ts), where Node 20 has no import().
import { createRequire } from "node:module";
import { PanescopeError } from "../errors.js";

type Resvg = typeof import("@resvg/resvg-js").Resvg;
let loaded: Promise<Resvg> | undefined;

function resvg(): Promise<Resvg> {
  loaded ??= new Promise<typeof import("@resvg/resvg-js")>((resolve) => resolve(createRequire(import.meta.url)("@resvg/resvg-js") as typeof import("@resvg/resvg-js"))).then(
    (module) => module.Resvg,
    (cause: unknown) => {
      loaded = undefined;
      throw new PanescopeError(
        "not-allowed",
        `PNG needs the optional package @resvg/resvg-js, which is not installed for this platform (${process.platform}-${process.arch}): install it beside panescope, or ask for format "svg"`,
        { cause },
      );
    },
  );
  return loaded;
}

/** The SVG drawn at `scale` (2: sharp on high-density screens) with the system's fonts. */
export async function svgToPng(svg: string, scale = 1): Promise<Uint8Array> {
  const Resvg = await resvg();
  const image = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans Mono" }, fitTo: { mode: "zoom", value: scale } });
  return image.render().asPng();
}
