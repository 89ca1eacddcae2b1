// Types of build-if-stale.mjs for its test (test/build-if-stale.test.ts).
/** Why `root`'s dist/ must be built again, or undefined when it is up to date. */
export function staleReason(root: string): string | undefined;
