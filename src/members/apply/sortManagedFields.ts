import type { ManagedFieldsEntry } from '../types.ts';

/**
 * managedFields in the order the API server encodes them on every write (managedfields internal
 * sortEncodedManagedFields): Apply entries before Update ones, then by time to the second (none counts as 0), then
 * by manager, apiVersion and subresource.
 */
export function sortManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const seconds = (e: ManagedFieldsEntry) => (e.time ? Math.floor(Date.parse(e.time) / 1000) : 0);
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...entries].sort(
    (p, q) =>
      byText(p.operation, q.operation) ||
      seconds(p) - seconds(q) ||
      byText(p.manager, q.manager) ||
      byText(p.apiVersion, q.apiVersion) ||
      byText(p.subresource ?? '', q.subresource ?? ''),
  );
}
