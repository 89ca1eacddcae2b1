// Loads a face bundled as a script (scripts/bundle-cli.mjs) through V8's code cache. The MCP server's
// face is 2 MB of JavaScript: compiling it, and the functions its start-up runs, was a fifth of the
// time until the server answered `initialize` and `tools/list` (figure 11c, 151 → 119 ms against
// `node -e ''` at 51 ms). Node 22 has a compile cache of its own (module.enableCompileCache); Node 20
// has only vm.Script's cachedData, for scripts, which is why that face is a script.
//
// The cache is written beside the face a second after it loaded, or as the process exits if that
// comes first (what had been compiled by then is in it: the start-up's functions too), and used by
// every later start. V8 refuses a cache made by another V8 or under other flags, but of the source
// it checks only the length (another face of the same length would run the old one's code): the
// cache therefore starts with the SHA-256 of the face it was made from. A cache that does not fit
// is refused, the face compiled as before and the cache written again. Beside the face, it is
// trusted exactly as the code it caches; where that directory cannot be written there is no cache,
// and nothing else changes.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { fs, path, url } from "./builtins.js";
import { Script } from "node:vm";

/** How long a process runs its face before the cache is written, unless it exits first. */
export const SAVE_AFTER_MS = 1000;

export interface ScriptFace {
  exports: Record<string, unknown>;
  /** What the load found: no cache, a cache V8 used, or one it refused (the face compiled anew). */
  cache: "none" | "used" | "rejected";
  /** Writes the cache now, once, when the load found none or a refused one; false when it did not. */
  save(): boolean;
}

/** The cache of `file` for this V8 and architecture (several Nodes may share one installation). */
export function cachePath(file: string): string {
  return `${file}.${process.versions.v8}-${process.arch}.cache`;
}

/**
 * Runs the script at `location` as CommonJS does (exports, require, module, __filename,
 * __dirname), with `__faceUrl` for the `import.meta.url` of its sources. The cache is saved after `saveAfterMs` or at
 * the process's exit, whichever comes first (undefined: never; tests call save()).
 */
export function loadScriptFace(location: string | URL, saveAfterMs: number | undefined = SAVE_AFTER_MS): ScriptFace {
  const file = typeof location === "string" ? location : url.fileURLToPath(location);
  const cacheFile = cachePath(file);
  const text = fs.readFileSync(file);
  const digest = createHash("sha256").update(text).digest(); // ≈1 ms for the MCP server's face
  const stored = readCache(cacheFile);
  const cachedData = stored !== undefined && stored.subarray(0, digest.length).equals(digest) ? stored.subarray(digest.length) : undefined;
  // The wrapper opens on the script's first line: its line numbers stay those of the file.
  const source = `(function (exports, require, module, __filename, __dirname, __faceUrl) {${text.toString("utf8")}\n})`;
  // No importModuleDynamically: Node 20 allows it only with an experimental flag or warning. The
  // build refuses a script face that imports at run time (scripts/bundle-cli.mjs).
  const script = new Script(source, { filename: file, cachedData });
  const cache = stored === undefined ? "none" : cachedData === undefined || script.cachedDataRejected === true ? "rejected" : "used";
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(file), module, file, path.dirname(file), url.pathToFileURL(file).href);
  let saved = cache === "used";
  const save = (): boolean => {
    if (saved) return false;
    saved = true;
    // Serializing the compiled code costs milliseconds: not for a directory that will refuse it
    // (an installation shared read-only).
    return writable(path.dirname(cacheFile)) && writeCache(cacheFile, Buffer.concat([digest, script.createCachedData()]));
  };
  if (!saved && saveAfterMs !== undefined) {
    setTimeout(save, saveAfterMs).unref();
    process.once("exit", save);
  }
  return { exports: module.exports, cache, save };
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined; // none yet (or unreadable): compiled as without one
  }
}

/** Written whole or not at all: a start beside this one reads the old cache or the new one. */
function writeCache(file: string, data: Buffer): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
    return true;
  } catch {
    fs.rmSync(temporary, { force: true });
    return false;
  }
}
