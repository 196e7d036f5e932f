import { fnv1a32 } from '../hashing/fnv1a32.ts';

/** The letters and digits k8s.io/apimachinery's rand.SafeEncodeString maps each character onto (no vowels). */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each character (code point) replaced by SAFE_ALPHANUMS[code % 27]. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const c of s) out += SAFE_ALPHANUMS[c.codePointAt(0)! % SAFE_ALPHANUMS.length];
  return out;
}

/**
 * Karmada's names.GenerateWorkName: the name lowercased with ':' made '.', then the safe encoding of the decimal
 * FNV-1a of `[<namespace>-]<name>-<kind>` lowercased. It names the Work, and every manifest carries it in its
 * work.karmada.io/name annotation.
 */
export function workName(kind: string, name: string, namespace: string): string {
  const safeName = name.replaceAll(':', '.').toLowerCase();
  const full = (namespace ? `${namespace}-${safeName}-${kind}` : `${safeName}-${kind}`).toLowerCase();
  return `${safeName}-${safeEncodeString(String(fnv1a32(full)))}`;
}
