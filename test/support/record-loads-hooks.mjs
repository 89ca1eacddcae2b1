// The resolve hook of record-loads.mjs: writes each resolved file URL as it is imported.
import { appendFileSync } from "node:fs";

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith("file:")) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
