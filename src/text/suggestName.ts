// Picks the valid name a misspelt one was most likely meant to be, or undefined when none is close.
import { editDistance } from './editDistance.ts';

/**
 * The candidate nearest to `word`, compared case-insensitively (a case-only difference counts as
 * distance 0.5 so it beats any real typo). Suggested only when the distance is at most
 * max(2, word.length / 3); ties go to the candidate listed first.
 */
export function suggestName(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, word.length / 3);
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const folded = editDistance(lower, candidate.toLowerCase());
    const distance = folded === 0 ? 0.5 : folded;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}
