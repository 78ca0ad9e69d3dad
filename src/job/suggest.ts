/** The known name a mistyped one most likely meant, or undefined when none is close. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const c = candidate.toLowerCase();
    let d = distance(lower, c);
    // "channel" for "channel_id": a prefix of four letters or more is as good as a typo.
    if (lower.length >= 4 && (c.startsWith(lower) || lower.startsWith(c))) d = Math.min(d, 1);
    // "country" for "countries": a singular for its plural (or the other way round) is as good as a typo.
    if (lower.length >= 4 && (plural(lower) === c || plural(c) === lower)) d = Math.min(d, 1);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(typed.length / 4)) ? best : undefined;
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** "country" → "countries", "tag" → "tags". */
function plural(word: string): string {
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}
