#!/usr/bin/env node
// The second half of `npm run build`, after tsc: the `panescope` command as bundles. Why: Node 20's
// ES module loader takes a command's files one after another, and each costs a millisecond or more
// on a 2-core VM; the MCP server loaded 502 of them before it answered `initialize` (4.5–6×
// `node -e ''`; issue 28 asks 3×) and `panescope read` 14 (issue 26 asks 1.3×). Node 22's compile
// cache would do it too.
//
// dist/cli.js, over tsc's, is src/cli.ts with the little it imports at its top. Each lazy import
// in src/cli.ts is a face (the MCP server, the shell client, the option model …) and is bundled on
// its own, whole, as dist/faces/NAME.js: a command loads cli.js and its face (the option model too
// for most), and nothing else. esbuild's code splitting was tried first: shared chunks made
// `--version` load 13 files and `read` 4, slower than tsc's files for `--version`. Faces repeat
// what they share, so the faces whose start-up is no figure (the daemon, which starts once per
// tmux server, golden, demo, report, record) stay tsc's files: bundled too, they made the tarball
// 1.5 MiB instead of 0.3.
//
// Left outside, loaded from node_modules as before: xterm (CommonJS, required at the first watched
// pane) and the optional PNG renderer (a native addon). tsc's files stay: the library (`panescope`,
// `panescope/golden`), its types, and the demo's programs, run by node in their panes.
// A face named in SCRIPTS is bundled as a script instead, NAME.cjs, which a small NAME.js runs
// through V8's code cache (src/code-cache.ts): compiling the MCP server's 2 MB was a fifth of its
// start-up, and Node 20 caches compiled code for scripts only.
// dist/faces/inputs.json says which sources each output holds (test/integration/cli/startup.test.ts
// reads it to check what a command loads); it is not shipped.
// Usage: node scripts/bundle-cli.mjs (from the repository root, as npm runs it).
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

export const ENTRY = "src/cli.ts";
export const OUTPUT = "dist/cli.js";
export const FACES = "dist/faces";
export const INPUTS = `${FACES}/inputs.json`;
export const EXTERNAL = ["@xterm/headless", "@xterm/addon-unicode11", "@resvg/resvg-js"];
/** Lazy imports of src/cli.ts left to tsc's files (see above). */
export const UNBUNDLED = new Set(["./daemon/main.js", "./demo/main.js", "./golden/main.js", "./mcp/report/main.js", "./record/main.js"]);
/**
 * Worker threads a face starts, bundled as faces of their own beside it (src/mcp/engine/front.ts
 * finds its engine there). What a thread imports of another face is that face's file at run time,
 * not a second copy: the engine thread loads the MCP server's face (2 MB) as `panescope mcp` does.
 */
export const THREADS = { "mcp-engine-thread": { source: "src/mcp/engine/thread.ts", shares: { "../main.js": "./mcp.js" } } };
/** The same for a face's own imports of another face: the split server's front answers the handshake with the MCP server's face. */
export const FACE_SHARES = { "src/mcp/engine/front.ts": { "../main.js": "./mcp.js" } };
/** Faces loaded as scripts through the code cache (see above). */
export const SCRIPTS = new Set(["mcp"]);
/** The face that may hold only our own modules and Node's: `panescope read` is held to 1.3× Node's floor. */
export const SHELL_FACE = "shell-entry";
/** The first line after the shebang of a bundled dist/cli.js: how a test tells it from tsc's. */
export const MARK = "// panescope CLI bundle (scripts/bundle-cli.mjs): do not edit.";

const COMMON = {
  bundle: true,
  platform: "node", // node:* and bare builtins stay imports
  format: "esm",
  target: "node20",
  external: EXTERNAL,
  metafile: true,
  logLevel: "warning",
};
// CommonJS packages in a face (cross-spawn under execa, ajv under the MCP SDK) require() Node's
// modules; an ES module has no `require` of its own, so each face gets one.
const REQUIRE = `import { createRequire as __panescopeRequire } from "node:module";\nconst require = __panescopeRequire(import.meta.url);`;

/** `./mcp/report/main.js` → `mcp-report`: a face's name from its import in src/cli.ts. */
export function faceName(specifier) {
  return specifier.replace(/^\.\//, "").replace(/\.js$/, "").replace(/\/main$/, "").replaceAll("/", "-");
}

/** The faces: every `import("./…")` in src/cli.ts, with the source it names. */
function faces(root) {
  const text = readFileSync(join(root, ENTRY), "utf8");
  const found = new Map();
  for (const [, specifier] of text.matchAll(/\bimport\("(\.\/[^"]+\.js)"\)/g)) if (!UNBUNDLED.has(specifier)) found.set(specifier, `src/${specifier.slice(2).replace(/\.js$/, ".ts")}`);
  return found;
}

/** Writes the bundles under `root`; resolves with each output's sources (paths from `root`). */
export async function bundleCli(root) {
  const lazy = faces(root);
  const entry = join(root, ENTRY);
  rmSync(join(root, FACES), { recursive: true, force: true });
  // src/cli.ts's lazy imports point at the faces' files, which are built next, or at tsc's.
  const toFaces = {
    name: "faces",
    setup(build) {
      build.onResolve({ filter: /^\.\// }, (args) => {
        if (args.importer !== entry || args.kind !== "dynamic-import") return undefined;
        if (UNBUNDLED.has(args.path)) return { path: args.path, external: true };
        return lazy.has(args.path) ? { path: `./faces/${faceName(args.path)}.js`, external: true } : undefined;
      });
    },
  };
  const cli = await build({ ...COMMON, absWorkingDir: root, entryPoints: [ENTRY], outfile: OUTPUT, plugins: [toFaces], banner: { js: MARK } });
  const threads = Object.entries(THREADS);
  const sharing = [...threads.map(([, { source, shares }]) => [source, shares]), ...Object.entries(FACE_SHARES)];
  const shared = {
    name: "shared-faces",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const shares = sharing.find(([source]) => args.importer === join(root, source))?.[1];
        const face = shares?.[args.path];
        return face === undefined ? undefined : { path: face, external: true };
      });
    },
  };
  const entryPoints = { ...Object.fromEntries([...lazy].map(([specifier, source]) => [faceName(specifier), source])), ...Object.fromEntries(threads.map(([name, { source }]) => [name, source])) };
  const modules = Object.fromEntries(Object.entries(entryPoints).filter(([name]) => !SCRIPTS.has(name)));
  const banner = "// A face of the panescope CLI, bundled by scripts/bundle-cli.mjs: do not edit.";
  const built = await build({ ...COMMON, absWorkingDir: root, entryPoints: modules, outdir: FACES, plugins: [shared], banner: { js: `${banner}\n${REQUIRE}` } });
  const inputs = {};
  for (const { metafile } of [cli, built]) for (const [output, meta] of Object.entries(metafile.outputs)) inputs[relative("dist", output)] = Object.keys(meta.inputs);
  for (const name of SCRIPTS) Object.assign(inputs, await bundleScript(root, name, entryPoints[name], banner));
  const foreign = [...inputs["cli.js"], ...inputs[`faces/${SHELL_FACE}.js`]].filter((path) => !path.startsWith("src/"));
  if (foreign.length > 0) throw new Error(`dist/cli.js or the shell client would bundle ${foreign.join(", ")}: they may import only panescope's own modules and Node's`);
  writeFileSync(join(root, INPUTS), `${JSON.stringify(inputs, null, 1)}\n`);
  return inputs;
}

/**
 * The face `name` as a script, NAME.cjs (its sources' `import.meta.url` is the script's URL, given
 * by the loader), and NAME.js, which loads it through the code cache and exports what it exports.
 */
async function bundleScript(root, name, source, banner) {
  const script = await build({ ...COMMON, absWorkingDir: root, entryPoints: [source], outfile: `${FACES}/${name}.cjs`, format: "cjs", define: { "import.meta.url": "__faceUrl" }, banner: { js: banner } });
  const imports = Object.values(script.metafile.outputs)[0]?.imports ?? [];
  const late = imports.filter((i) => i.kind === "dynamic-import" && i.external).map((i) => i.path);
  if (late.length > 0) throw new Error(`faces/${name}.cjs would import ${late.join(", ")} at run time: a script has no import() on Node 20 without a flag; require it (createRequire)`);
  // The names it exports, as an ES module's would be (a CommonJS build lists none).
  const names = await build({ ...COMMON, external: [], absWorkingDir: root, entryPoints: [source], bundle: false, write: false, outdir: FACES });
  const exported = Object.values(names.metafile.outputs)[0]?.exports ?? [];
  const loader = [
    `import { loadScriptFace } from "./src/code-cache.ts";`,
    `const face = loadScriptFace(new URL("./${name}.cjs", import.meta.url)).exports;`,
    ...exported.map((key) => `export const ${key} = face.${key};`),
  ].join("\n");
  const face = await build({ ...COMMON, absWorkingDir: root, stdin: { contents: loader, resolveDir: root, sourcefile: `${name}.js` }, outfile: `${FACES}/${name}.js`, banner: { js: banner } });
  const own = Object.values(face.metafile.outputs)[0]?.inputs ?? {};
  const held = Object.keys(Object.values(script.metafile.outputs)[0]?.inputs ?? {});
  // Loading NAME.js loads every source NAME.cjs holds.
  return { [`faces/${name}.cjs`]: held, [`faces/${name}.js`]: [...Object.keys(own).filter((path) => path.startsWith("src/")), ...held] };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = process.cwd();
  const inputs = await bundleCli(root);
  const sources = new Set(Object.values(inputs).flat()).size;
  // stderr: `npm pack --json` owns stdout.
  process.stderr.write(`${OUTPUT} and ${Object.keys(inputs).length - 1} faces in ${FACES}/: ${sources} sources\n`);
}
