// Types of bundle-cli.mjs for the tests that read what it wrote (test/build-if-stale.test.ts).
/** The first line after the shebang of a bundled dist/cli.js. */
export const MARK: string;
/** Writes the bundles under `root`; resolves with each output's sources (paths from `root`). */
export function bundleCli(root: string): Promise<Record<string, string[]>>;
