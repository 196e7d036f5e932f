import { isDeepStrictEqual } from 'node:util';
import { fieldShape, type ValueShape } from '../../api/listSemantics.ts';
import { ApiError } from '../ApiError.ts';
import type { KubeObject, ManagedFieldsEntry } from '../types.ts';
import { fieldsOf, fromFieldsV1, removeAt, toFieldsV1, valueAt, type FieldSet } from './fieldSet.ts';
import { mergeApplied } from './mergeApplied.ts';
import { sortManagedFields } from './sortManagedFields.ts';
import { timeOf } from './trackUpdate.ts';

export interface ApplyRequest {
  /** The live object, or undefined when apply creates it. */
  live: KubeObject | undefined;
  applied: KubeObject;
  manager: string;
  force: boolean;
  apiVersion: string;
  /** The object's shape: how its lists merge. */
  shape: ValueShape;
  subresource?: 'status' | 'scale';
  now: string;
}

/**
 * Server-side apply (KEP-555): merges the applied configuration, fails with a 409 listing every field another
 * manager owns with a different value (unless force, which takes the fields over), removes fields this
 * manager applied before and no longer applies when nobody else owns them, and records the new field set.
 */
export function serverSideApply(req: ApplyRequest): KubeObject {
  const scope = req.subresource === 'status' ? 'status' : 'main';
  const entries: ManagedFieldsEntry[] = structuredClone(req.live?.metadata.managedFields ?? []);
  const isMine = (e: ManagedFieldsEntry) =>
    e.manager === req.manager && e.operation === 'Apply' && (e.subresource ?? '') === (req.subresource ?? '');
  const appliedFields = fieldsOf(req.applied, scope, req.shape);
  const previous = entries.find(isMine);
  const previousFields: FieldSet = previous ? fromFieldsV1(previous.fieldsV1) : new Set();

  const conflicts: { entry: ManagedFieldsEntry; path: string[] }[] = [];
  if (req.live) {
    for (const entry of entries) {
      if (isMine(entry)) continue;
      const owned = fromFieldsV1(entry.fieldsV1);
      for (const encoded of appliedFields) {
        if (!owned.has(encoded)) continue;
        const path = JSON.parse(encoded) as string[];
        if (path[path.length - 1] === '.') continue;
        if (isDeepStrictEqual(valueAt(req.live, path, req.shape), valueAt(req.applied, path, req.shape))) continue;
        if (req.force) owned.delete(encoded);
        else conflicts.push({ entry, path });
      }
      if (req.force) entry.fieldsV1 = toFieldsV1(owned);
    }
  }
  // structured-merge-diff walks each manager's field set in its sorted order.
  if (conflicts.length > 0) throw conflictError(conflicts.sort((a, b) => comparePaths(a.path, b.path)));

  const base: KubeObject = req.live ? structuredClone(req.live) : { metadata: {} };
  const { metadata: appliedMeta, apiVersion: _a, kind: _k, ...appliedBody } = req.applied;
  let merged: KubeObject;
  if (scope === 'status') {
    merged = { ...base, status: mergeApplied(base.status, req.applied.status, fieldShape(req.shape, 'status')) };
  } else {
    const { status: _s, ...body } = appliedBody;
    merged = mergeApplied(base, body, req.shape) as KubeObject;
    const ownableMeta: Record<string, unknown> = {};
    for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences']) {
      if (appliedMeta?.[key] !== undefined) ownableMeta[key] = appliedMeta[key];
    }
    merged.metadata = mergeApplied(
      base.metadata,
      ownableMeta,
      fieldShape(req.shape, 'metadata'),
    ) as KubeObject['metadata'];
  }

  const stillOwnedByOthers = new Set<string>();
  for (const entry of entries)
    if (!isMine(entry)) for (const p of fromFieldsV1(entry.fieldsV1)) stillOwnedByOthers.add(p);
  // Shallowest paths first: a dropped list item goes whole, found by its key while its key field is still there
  // (removing `f:name` first left an item that could no longer be found, stranded with its defaulted fields); the
  // paths inside it are then gone already.
  const dropped = [...previousFields]
    .filter((p) => !appliedFields.has(p) && !stillOwnedByOthers.has(p))
    .map((encoded) => ({ encoded, path: JSON.parse(encoded) as string[] }))
    .sort((a, b) => depthOf(a.path) - depthOf(b.path));
  for (const { encoded, path } of dropped) {
    // Never drop a list item or map that another manager still owns something inside.
    const prefix = `${encoded.replace(/,"\."\]$|\]$/, '')},"`;
    if ([...stillOwnedByOthers].some((o) => o.startsWith(prefix))) continue;
    removeAt(merged, path, req.shape);
  }

  const mine: ManagedFieldsEntry = {
    manager: req.manager,
    operation: 'Apply',
    apiVersion: req.apiVersion,
    ...timeOf(req.subresource, req.now),
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(appliedFields),
    ...(req.subresource ? { subresource: req.subresource } : {}),
  };
  const others = entries.filter((e) => !isMine(e) && Object.keys(e.fieldsV1).length > 0);
  merged.metadata.managedFields = sortManagedFields(appliedFields.size === 0 ? others : [...others, mine]);
  return merged;
}

/** How deep a field path reaches; an item's own marker (`k:…` then `.`) counts as the item, before its fields. */
function depthOf(path: readonly string[]): number {
  return path[path.length - 1] === '.' ? path.length - 1.5 : path.length;
}

/** `.spec.replicas`, `.spec.template.spec.containers[name="web"].image`, as the API server formats paths. */
export function formatFieldPath(path: string[]): string {
  let out = '';
  for (const token of path) {
    if (token === '.') continue;
    if (token.startsWith('f:')) out += `.${token.slice(2)}`;
    else if (token.startsWith('k:')) {
      const keys = JSON.parse(token.slice(2)) as Record<string, unknown>;
      out += `[${Object.entries(keys)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    } else if (token.startsWith('v:')) out += `[${token.slice(2)}]`;
  }
  return out;
}

/**
 * structured-merge-diff's Set order: at each level the fields that end there come before those it descends into, and
 * path elements sort as field names, then keys, then values, then indexes (PathElement.Compare).
 */
function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const aEnds = a.length === i + 1;
    if (aEnds !== (b.length === i + 1)) return aEnds ? -1 : 1;
    const byKind = ELEMENT_ORDER.indexOf(a[i]!.slice(0, 2)) - ELEMENT_ORDER.indexOf(b[i]!.slice(0, 2));
    return byKind || (a[i]! < b[i]! ? -1 : 1);
  }
  return a.length - b.length;
}
const ELEMENT_ORDER = ['f:', 'k:', 'v:', 'i:'];

function conflictError(conflicts: { entry: ManagedFieldsEntry; path: string[] }[]): ApiError {
  // apimachinery's managedfields conflict.go: getConflictMessage groups by manager identifier (sorted), printManager
  // names an Update manager with its apiVersion and any manager with its subresource.
  const identifier = (e: ManagedFieldsEntry) =>
    JSON.stringify({
      manager: e.manager,
      operation: e.operation,
      ...(e.operation === 'Update' ? { apiVersion: e.apiVersion } : {}),
      ...(e.subresource ? { subresource: e.subresource } : {}),
    });
  const printManager = (e: ManagedFieldsEntry) =>
    `${JSON.stringify(e.manager)}${e.subresource ? ` with subresource ${JSON.stringify(e.subresource)}` : ''}${
      e.operation === 'Update' ? ` using ${e.apiVersion}` : ''
    }`;
  let message: string;
  if (conflicts.length === 1) {
    const [only] = conflicts;
    message = `Apply failed with 1 conflict: conflict with ${printManager(only!.entry)}: ${formatFieldPath(only!.path)}`;
  } else {
    const byManager = new Map<string, { entry: ManagedFieldsEntry; paths: string[] }>();
    for (const c of conflicts) {
      const id = identifier(c.entry);
      const group = byManager.get(id) ?? { entry: c.entry, paths: [] };
      group.paths.push(formatFieldPath(c.path));
      byManager.set(id, group);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      const group = byManager.get(id)!;
      lines.push(`conflicts with ${printManager(group.entry)}:`, ...group.paths.map((p) => `- ${p}`));
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, {
    causes: conflicts.map((c) => ({
      type: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.entry)}`,
      field: formatFieldPath(c.path),
    })),
  });
}
