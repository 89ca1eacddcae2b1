// The package version, read once from package.json (one source of truth).
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export const version: string = manifest.version;
