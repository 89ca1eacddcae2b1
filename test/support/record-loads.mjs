// Preloaded with `node --import` by test/startup.test.ts: appends every module the process loads to
// the file named by RECORD_LOADS, one URL or path a line. ES modules are seen by a resolve hook
// (record-loads-hooks.mjs, on Node's loader thread); CommonJS ones, which Node 20's hooks do not
// see when require()d, are the require cache, written at exit.
import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { createRequire } from "node:module";

const file = process.env.RECORD_LOADS;
if (file) {
  register("./record-loads-hooks.mjs", import.meta.url, { data: { file } });
  const require = createRequire(import.meta.url);
  process.once("exit", () => appendFileSync(file, Object.keys(require.cache).map((path) => `${path}\n`).join("")));
}
