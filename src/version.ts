// The package version, read once from package.json (one source of truth).
import { fs } from "./builtins.js";

const manifest = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export const version: string = manifest.version;
