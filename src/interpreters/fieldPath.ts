// The only "language" an InterpreterCustomization has: field paths. Parsed into segments, read and
// written structurally; there is nothing to evaluate, so nothing to sandbox beyond a size limit.

import { setDataKey } from '../yaml/setDataKey.ts';

export type Segment = { key: string } | { index: number } | { all: true };

const MAX_PATH_LENGTH = 256;
const SEGMENT = /^([A-Za-z0-9_$-]+)((?:\[(?:\d+|\*)\])*)$/;

/** Segments of `a.b[0].c[*]`, or an error message saying what is wrong with it. */
export function parseFieldPath(path: string): Segment[] | string {
  if (typeof path !== 'string' || path === '') return 'a field path must be a non-empty string like spec.replicas';
  if (path.length > MAX_PATH_LENGTH) return `a field path is at most ${MAX_PATH_LENGTH} characters`;
  const out: Segment[] = [];
  for (const part of path.split('.')) {
    const m = SEGMENT.exec(part);
    if (!m)
      return `"${part}" in ${path} is not a field name (letters, digits, _ - $) optionally followed by [N] or [*]`;
    out.push({ key: m[1]! });
    for (const idx of m[2]!.match(/\[(\d+|\*)\]/g) ?? []) {
      const inner = idx.slice(1, -1);
      out.push(inner === '*' ? { all: true } : { index: Number(inner) });
    }
  }
  return out;
}

function segmentsOf(path: string): Segment[] {
  const parsed = parseFieldPath(path);
  // Validation rejected bad paths before any render; reaching here with one is a bug.
  if (typeof parsed === 'string') throw new Error(`internal error: unvalidated field path ${path}: ${parsed}`);
  return parsed;
}

/** Every value the path reaches: one at most without `[*]`, any number with it. */
export function readAll(obj: unknown, path: string): unknown[] {
  let current: unknown[] = [obj];
  for (const s of segmentsOf(path)) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('key' in s) {
        // Own fields only: a path naming constructor or __proto__ reads what the object holds, not Object's.
        if (v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, s.key))
          next.push((v as Record<string, unknown>)[s.key]);
      } else if (Array.isArray(v)) {
        if ('all' in s) next.push(...v);
        else if (s.index < v.length) next.push(v[s.index]);
      }
    }
    current = next;
  }
  return current.filter((v) => v !== undefined);
}

export function read(obj: unknown, path: string): unknown {
  return readAll(obj, path)[0];
}

/** A copy of obj with the value at path set (objects created on the way); `[*]` and missing indexes leave it unchanged. */
export function write(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const segments = segmentsOf(path);
  const set = (node: unknown, i: number): unknown => {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if ('key' in s) {
      const base = node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : {};
      return { ...base, [s.key]: last ? value : set(base[s.key], i + 1) };
    }
    if (!Array.isArray(node) || 'all' in s || s.index >= node.length) return node;
    const copy = [...node];
    copy[s.index] = last ? value : set(node[s.index], i + 1);
    return copy;
  };
  return set(obj, 0) as Record<string, unknown>;
}

/** A copy of obj without the value at path (`[*]` removes the field from every element). */
export function remove(obj: Record<string, unknown>, path: string): Record<string, unknown> {
  const segments = segmentsOf(path);
  const del = (node: unknown, i: number): unknown => {
    const s = segments[i]!;
    const last = i === segments.length - 1;
    if ('key' in s) {
      if (!node || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, s.key)) return node;
      const copy = { ...(node as Record<string, unknown>) };
      if (last) delete copy[s.key];
      else setDataKey(copy, s.key, del(copy[s.key], i + 1));
      return copy;
    }
    if (!Array.isArray(node)) return node;
    if ('all' in s) return last ? [] : node.map((v) => del(v, i + 1));
    if (s.index >= node.length) return node;
    if (last) return node.filter((_, j) => j !== s.index);
    const copy = [...node];
    copy[s.index] = del(node[s.index], i + 1);
    return copy;
  };
  return del(obj, 0) as Record<string, unknown>;
}
