// One self-contained HTML page for evidence a person looks at (the golden report, an MCP
// transcript): inline style and script only, and a Content-Security-Policy that forbids every
// fetch, so the page works offline and a hostile screen or transcript cannot load anything. Pure.

export interface PageInput {
  title: string;
  /** One line under the title (counts, when, where). */
  subtitle: string;
  /** The page's body HTML, already escaped by the caller. */
  body: string;
  /** Inline script, run after the body (no external script is ever allowed). */
  script?: string;
}

/** Text for HTML content or an attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[c] ?? ""};`);
}

/** JSON that can sit inside <script> unchanged: no `</script>`, `<!--` or line separators survive. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** An image (SVG or PNG) as a data: URL for <img>: an SVG shown this way runs no script. */
export function dataUrl(mime: string, content: string | Uint8Array): string {
  const base64 = typeof content === "string" ? Buffer.from(content, "utf8").toString("base64") : Buffer.from(content).toString("base64");
  return `data:${mime};base64,${base64}`;
}

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; media-src data:";

const STYLE = `
:root { color-scheme: dark; --bg: #111418; --panel: #1b2027; --line: #2c333d; --text: #d8dee9; --muted: #8b95a5; --fail: #ff6b6b; --pass: #5fd38d; --mark: #ffd700; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, sans-serif; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 8px; }
h3 { font-size: 13px; margin: 12px 0 6px; color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
.subtitle { color: var(--muted); margin-bottom: 20px; }
section.item { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; padding: 14px 16px; margin-bottom: 18px; }
section.item.fail { border-left-color: var(--fail); }
section.item.pass { border-left-color: var(--pass); }
.badge { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; font-weight: 700; margin-right: 6px; }
.badge.fail { background: var(--fail); color: #000; }
.badge.pass { background: var(--pass); color: #000; }
.meta { color: var(--muted); font-size: 12px; }
pre, code { font: 12.5px/1.35 ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; }
pre.message, pre.raw { white-space: pre-wrap; }
pre { background: #0b0d10; border: 1px solid var(--line); border-radius: 4px; padding: 8px 10px; overflow: auto; max-height: 420px; margin: 0; white-space: pre; }
.screens { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.screens figure { margin: 0; }
.screens figcaption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
.screens svg, .screens img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
.player .controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.player input[type=range] { flex: 1; }
.player button { background: var(--line); color: var(--text); border: 0; border-radius: 4px; padding: 3px 10px; cursor: pointer; }
.term { display: inline-block; background: #000; color: #fff; padding: 0; border: 1px solid var(--line); line-height: 1.2; white-space: pre; }
a { color: #8ab4f8; }
details > summary { cursor: pointer; color: var(--muted); }
`;

/** The whole page: title, subtitle, body and an optional script, all inline. */
export function htmlPage(input: PageInput): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<h1>${escapeHtml(input.title)}</h1>`,
    `<div class="subtitle">${escapeHtml(input.subtitle)}</div>`,
    input.body,
    ...(input.script === undefined ? [] : [`<script>${input.script}</script>`]),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
