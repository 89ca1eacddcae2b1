// node:fs, node:path and node:util for the modules a `panescope read` loads, without their ES module
// facades. `import … from "node:fs"` makes Node 20 build a facade of every export, calling each lazy
// getter on the way (fs.promises, fs's stream classes, util's MIMEType …): ≈ 1.8 ms of CPU for these
// three, about 3% of the Node floor that a read must stay within 1.3× of (issue 26).
// process.getBuiltinModule (Node ≥ 20.16) hands over the module itself; an older Node 20 imports it.
// node:net is not here: loading it is the cost (its streams), and only the shell client needs it.

const builtin = process.getBuiltinModule?.bind(process);

export const fs = builtin?.("node:fs") ?? (await import("node:fs"));
export const path = builtin?.("node:path") ?? (await import("node:path"));
export const util = builtin?.("node:util") ?? (await import("node:util"));
