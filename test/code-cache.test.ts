// A face loaded through V8's code cache (src/code-cache.ts): it runs as CommonJS would, its cache is
// written once and used by the next load, and a cache V8 refuses, or one that cannot be written,
// changes nothing but the time it takes.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cachePath, loadScriptFace } from "../src/code-cache.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A script face in a directory of its own, with functions enough to cache. */
function face(): string {
  const dir = mkdtempSync(join(tmpdir(), "panescope-code-cache-"));
  dirs.push(dir);
  const file = join(dir, "face.cjs");
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`).join("\n");
  writeFileSync(
    file,
    `${body}
exports.sum = (n) => { let s = 0; for (let i = 0; i < 200; i++) s += eval("f" + i)(n); return s; };
exports.where = { url: __faceUrl, file: __filename, dir: __dirname, path: require("node:path").sep };
`,
  );
  return file;
}

describe("loadScriptFace", () => {
  it("runs the script as CommonJS, with the script's own URL for import.meta.url", () => {
    const file = face();
    const { exports, cache } = loadScriptFace(pathToFileURL(file), undefined);
    expect(cache).toBe("none");
    expect((exports.sum as (n: number) => number)(1)).toBe(2 * (199 * 200) / 2);
    expect(exports.where).toEqual({ url: pathToFileURL(file).href, file, dir: join(file, ".."), path: "/" });
  });

  it("writes its cache once, and the next load uses it", () => {
    const file = face();
    const first = loadScriptFace(file, undefined);
    expect(existsSync(cachePath(file))).toBe(false);
    expect(first.save()).toBe(true);
    expect(first.save()).toBe(false);
    expect(readFileSync(cachePath(file)).length).toBeGreaterThan(0);
    const second = loadScriptFace(file, undefined);
    expect(second.cache).toBe("used");
    expect(second.save()).toBe(false); // a cache that was used is not written again
    expect((second.exports.sum as (n: number) => number)(0)).toBe((199 * 200) / 2);
  });

  it("a cache V8 refuses (another source, or garbage) leaves the face compiled anew, and is written again", () => {
    const file = face();
    writeFileSync(cachePath(file), Buffer.from("not a code cache, not at all".repeat(40)));
    const loaded = loadScriptFace(file, undefined);
    expect(loaded.cache).toBe("rejected");
    expect((loaded.exports.sum as (n: number) => number)(0)).toBe((199 * 200) / 2);
    expect(loaded.save()).toBe(true);
    expect(loadScriptFace(file, undefined).cache).toBe("used");
    // The source changed: the old cache no longer fits it.
    writeFileSync(file, `${readFileSync(file, "utf8")}\nexports.extra = 1;\n`);
    const changed = loadScriptFace(file, undefined);
    expect(changed.cache).toBe("rejected");
    expect(changed.exports.extra).toBe(1);
  });

  it("a cache for another face of the same length is refused (V8 checks only the length)", () => {
    const file = face();
    expect(loadScriptFace(file, undefined).save()).toBe(true);
    const edited = readFileSync(file, "utf8").replace("x * 0 + 0;", "x * 0 + 9;");
    expect(edited.length).toBe(readFileSync(file, "utf8").length);
    writeFileSync(file, edited);
    const loaded = loadScriptFace(file, undefined);
    expect(loaded.cache).toBe("rejected");
    // The new source's code runs, not the cached code of the old one.
    expect((loaded.exports.sum as (n: number) => number)(0)).toBe((199 * 200) / 2 + 9);
  });

  it("where the cache cannot be written, the face runs all the same and no temporary file is left", () => {
    const file = face();
    // A directory where the cache file would go (root writes anywhere else): the rename fails.
    mkdirSync(cachePath(file));
    writeFileSync(join(cachePath(file), "inside"), "");
    const loaded = loadScriptFace(file, undefined);
    expect((loaded.exports.sum as (n: number) => number)(0)).toBe((199 * 200) / 2);
    expect(loaded.save()).toBe(false);
    expect(readdirSync(join(file, "..")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
