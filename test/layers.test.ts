// The layers of docs/architecture.md, enforced: imports only point down (tmux → observe → watch → faces → daemon → cli),
// observe/ never sees tmux/, evidence/ never sees watch/, faces never import each other, and there are no import cycles.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

/** Layer of a file under src/: a higher layer may import a lower one, never the reverse. */
function layerOf(file: string): { name: string; rank: number } {
  const rel = relative(SRC, file);
  const top = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : rel;
  // builtins.ts: Node's own modules without their ES module facades (for the CLI's start-up path).
  // package-files.ts: where the package's files are, from src/, dist/ or a face of the bundled CLI.
  // bytes.ts: byte arrays for the stream's hot path (tmux/ decodes into them, observe/ joins them).
  // code-cache.ts: runs a face bundled as a script through V8's code cache (the build's loader).
  // nearest.ts: the "did you mean" of a refused name (tool arguments, key names).
  // sh-word.ts: a word quoted for sh, in commands printed for a person to paste.
  // output-file.ts: a file named with -o that cannot be written, said alike by record and shot.
  // reader-gone.ts: a command's stdout reader gone (EPIPE), for the faces that write long output.
  if (top === "sh-word.ts" || top === "output-file.ts" || top === "nearest.ts" || top === "reader-gone.ts" || top === "code-cache.ts" || top === "bytes.ts" || top === "errors.ts" || top === "version.ts" || top === "builtins.ts" || top === "package-files.ts") return { name: "base", rank: 0 };
  if (top === "tmux") return { name: "tmux", rank: 1 };
  if (top === "observe") return { name: "observe", rank: 1 };
  if (top === "watch") return { name: "watch", rank: 2 };
  // Pure renderers and formats (SVG, asciicast) over observe's snapshots: at watch's rank so the
  // faces (golden/ and mcp/ draw screens, record/ writes casts) may import them; they import only
  // observe/ and base, never watch/.
  if (top === "evidence") return { name: "evidence", rank: 2 };
  if (top === "options.ts" || top === "options") return { name: "options", rank: 2 };
  // shell/ is a face like mcp/ (the CLI's client of the daemon: kept free of the MCP SDK, so it
  // never imports mcp/). daemon/ sits above the faces: it serves mcp/'s server on shell/'s protocol.
  if (top === "mcp" || top === "golden" || top === "demo" || top === "record" || top === "shell" || top === "index.ts") return { name: top, rank: 3 };
  if (top === "daemon") return { name: "daemon", rank: 4 };
  if (top === "cli.ts") return { name: "cli", rank: 5 };
  throw new Error(`src/${rel} is in no layer: add it to test/layers.test.ts`);
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.[^"']+)["']/g)].map((m) => m[1] ?? "");
  return specifiers.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
}

describe("layers", () => {
  const files = sources(SRC);

  it("every import points down or stays within its own layer", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        const sameLayer = from.name === to.name;
        if (!sameLayer && to.rank >= from.rank) wrong.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("evidence/ draws from observe/ and base only: renderers need no tmux and no watching", () => {
    const allowed = new Set(["evidence", "observe", "base"]);
    const wrong = files
      .filter((file) => layerOf(file).name === "evidence")
      .flatMap((file) => importsOf(file).filter((t) => !allowed.has(layerOf(t).name)).map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`));
    expect(wrong).toEqual([]);
  });

  it("has no import cycles", () => {
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(" → "));
        return;
      }
      state.set(file, "visiting");
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("the checker itself catches an upward import", () => {
    expect(layerOf(join(SRC, "tmux/client.ts")).rank).toBeLessThan(layerOf(join(SRC, "watch/hub.ts")).rank);
    expect(layerOf(join(SRC, "observe/pane/observer.ts")).name).not.toBe(layerOf(join(SRC, "tmux/client.ts")).name);
    expect(layerOf(join(SRC, "evidence/svg.ts")).rank).toBe(layerOf(join(SRC, "watch/hub.ts")).rank);
  });
});
