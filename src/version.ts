// The package version, read once from package.json (one source of truth).
import { fs } from "./builtins.js";
import { packageFile } from "./package-files.js";

const manifest = JSON.parse(fs.readFileSync(packageFile("package.json"), "utf8")) as { version: string };

export const version: string = manifest.version;
