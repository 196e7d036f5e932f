import { randomBytes } from 'node:crypto';

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix of generated names (k8s.io/apiserver/pkg/storage/names): no vowels, no lookalikes. */
export function randomSuffix(length = 5): string {
  return [...randomBytes(length)].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
}

/**
 * The name the API server gives an object created with `generateName` (SimpleNameGenerator): the prefix cut to 58
 * characters so the name stays within 63, then the suffix.
 */
export function nameFromGenerateName(generateName: string): string {
  return `${generateName.slice(0, 58)}${randomSuffix()}`;
}
