import { isDeepStrictEqual } from 'node:util';
import type { ValueShape } from '../../api/listSemantics.ts';
import type { KubeObject, ManagedFieldsEntry } from '../types.ts';
import { fieldsOf, fromFieldsV1, toFieldsV1, valueAt } from './fieldSet.ts';
import { sortManagedFields } from './sortManagedFields.ts';

/**
 * managedFields for a non-apply write (create, PUT, JSON/merge/strategic patch): the writer takes ownership of
 * every field it changed, other managers lose those fields, and fields that disappeared leave every set.
 */
export function trackUpdate(
  before: KubeObject | undefined,
  after: KubeObject,
  manager: string,
  apiVersion: string,
  now: string,
  shape: ValueShape,
  subresource?: 'status' | 'finalize' | 'scale',
): ManagedFieldsEntry[] {
  const scope = subresource === 'status' ? 'status' : 'main';
  const entries: ManagedFieldsEntry[] = structuredClone(before?.metadata.managedFields ?? []);
  const newFields = fieldsOf(after, scope, shape);
  const oldFields = before ? fieldsOf(before, scope, shape) : new Set<string>();
  const changed = new Set<string>();
  for (const encoded of newFields) {
    const path = JSON.parse(encoded) as string[];
    if (!oldFields.has(encoded) || !isDeepStrictEqual(valueAt(before, path, shape), valueAt(after, path, shape)))
      changed.add(encoded);
  }
  const removed = [...oldFields].filter((p) => !newFields.has(p));
  if (changed.size === 0 && removed.length === 0) return sortManagedFields(entries);
  const isMine = (e: ManagedFieldsEntry) =>
    e.manager === manager && e.operation === 'Update' && (e.subresource ?? '') === (subresource ?? '');
  for (const entry of entries) {
    if (isMine(entry)) continue;
    const owned = fromFieldsV1(entry.fieldsV1);
    let touched = false;
    for (const p of [...changed, ...removed]) if (owned.delete(p)) touched = true;
    if (touched) entry.fieldsV1 = toFieldsV1(owned);
  }
  const mineIndex = entries.findIndex(isMine);
  const mine = mineIndex >= 0 ? fromFieldsV1(entries[mineIndex]!.fieldsV1) : new Set<string>();
  for (const p of changed) mine.add(p);
  for (const p of removed) mine.delete(p);
  const entry: ManagedFieldsEntry = {
    manager,
    operation: 'Update',
    apiVersion,
    ...timeOf(subresource, now),
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(mine),
    ...(subresource ? { subresource } : {}),
  };
  if (mineIndex >= 0) entries[mineIndex] = entry;
  else entries.push(entry);
  return sortManagedFields(entries.filter((e) => Object.keys(e.fieldsV1).length > 0));
}

/**
 * An entry's time. A scale subresource's entry has none: managedfields.ScaleHandler.ToParent takes each entry's time
 * from the workload's entry of the same identity, and the Scale's own (apiVersion autoscaling/v1) is never one of them.
 */
export function timeOf(subresource: string | undefined, now: string): { time?: string } {
  return subresource === 'scale' ? {} : { time: now };
}
