// node:fs, node:path, node:util and node:url for the modules a `panescope read` loads, without their ES module
// facades. `import … from "node:fs"` makes Node 20 build a facade of every export, calling each lazy
// getter on the way (fs.promises, fs's stream classes, util's MIMEType …): ≈ 1.9 ms of CPU for these
// three, about 3% of the Node floor that a read must stay within 1.3× of (issue 26). Both ways here
// hand over the module itself: process.getBuiltinModule (Node ≥ 20.16), else require (older Node
// 20; node:module's own facade is small). No top-level await: `require(esm)` of our modules works.
// node:net is not here: loading it is the cost (its streams), and only the shell client needs it.
import { createRequire } from "node:module";

const builtin: (id: string) => unknown = process.getBuiltinModule?.bind(process) ?? createRequire(import.meta.url);

export const fs = builtin("node:fs") as typeof import("node:fs");
export const path = builtin("node:path") as typeof import("node:path");
export const util = builtin("node:util") as typeof import("node:util");
export const url = builtin("node:url") as typeof import("node:url");
