// Preloaded with `node --import` by test/startup.test.ts: appends every module the process loads to
// the file named by RECORD_LOADS, one URL or path a line. ES modules are seen by a resolve hook
// (record-loads-hooks.mjs, on Node's loader thread); CommonJS ones, which Node 20's hooks do not
// see when require()d, are the require cache, written at exit.
import { appendFileSync } from "node:fs";
import { createRequire, register, syncBuiltinESMExports } from "node:module";

const file = process.env.RECORD_LOADS;
if (file) {
  register("./record-loads-hooks.mjs", import.meta.url, { data: { file } });
  const require = createRequire(import.meta.url);
  process.once("exit", () => appendFileSync(file, Object.keys(require.cache).map((path) => `${path}\n`).join("")));
  // A started worker thread (the regex runner's) is one line too: "worker_threads.Worker".
  const threads = require("node:worker_threads");
  const Worker = threads.Worker;
  threads.Worker = class extends Worker {
    constructor(...args) {
      appendFileSync(file, "worker_threads.Worker\n");
      super(...args);
    }
  };
  syncBuiltinESMExports();
}
