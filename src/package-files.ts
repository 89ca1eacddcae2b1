// Files of the panescope package, found from wherever this module runs: src/ (tsx, the tests),
// dist/ (tsc's output, the library) or a face of the bundled CLI (dist/faces/, scripts/bundle-cli.mjs).
// A path relative to import.meta.url means something else in each; the package's root does not.
import { fs, path, url } from "./builtins.js";

let root: string | undefined;

/** The folder holding panescope's package.json: the nearest one above this module. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(url.fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${import.meta.url}: panescope's files are incomplete (reinstall it)`);
    dir = up;
  }
  return (root = dir);
}

/** A file of the package by its path from the root, e.g. `dist/cli.js`. */
export function packageFile(relative: string): string {
  return path.join(packageRoot(), relative);
}
