// The name a near miss was probably meant to be (a tool's argument, a key name): for the
// "did you mean" of a refusal. Pure.

/** Edit distance, small strings only. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** The valid name `name` was probably meant to be: same letters in another case, or 1–2 edits away. */
export function nearest(name: string, valid: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = valid.find((v) => v.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(name.length / 3));
  for (const v of valid) {
    const d = distance(lower, v.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = v;
      bestDistance = d;
    }
  }
  return best;
}
