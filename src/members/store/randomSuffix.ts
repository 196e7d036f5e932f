import { randomBytes } from 'node:crypto';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix of generated names (k8s.io/apiserver/pkg/storage/names): no vowels, no lookalikes. */
export function randomSuffix(length = 5): string {
  return [...randomBytes(length)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}
