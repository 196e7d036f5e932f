import { hash } from 'node:crypto';
import { fnv1a32 } from '../hashing/fnv1a32.ts';
import { safeEncodeString } from './workName.ts';

/** `<name>-<kind lowercased>`, with ':' (RBAC names) made DNS-safe (pkg/util/names/names.go). */
export function bindingName(kind: string, name: string): string {
  return `${name.replaceAll(':', '.')}-${kind}`.toLowerCase();
}
/**
 * Karmada generates permanent ids as random UUIDs when an object is created; Git has no create event,
 * so Flotilla derives a stable UUID-shaped id from the identity: the same object keeps the same id
 * across renders, clones and machines.
 */
export function permanentId(seed: string): string {
  // One-shot (node 20.12+): a render makes one per manifest, and a hash object per call cost several times more.
  const h = hash('sha1', seed, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/**
 * Karmada's names.GenerateBindingReferenceKey: the safe encoding of the decimal FNV-1a of `<namespace>/<name>` of a
 * binding (its name alone when cluster-scoped). A dependency's attached binding is labelled
 * `resourcebinding.karmada.io/depended-by-<this>` per parent.
 */
export function bindingReferenceKey(namespace: string, name: string): string {
  return safeEncodeString(String(fnv1a32(namespace ? `${namespace}/${name}` : name)));
}
