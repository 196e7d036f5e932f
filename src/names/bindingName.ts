import { createHash } from 'node:crypto';

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
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}
