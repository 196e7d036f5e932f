// The text an output file gets, stamped with the source commit, and whether it differs from the previous file.
import type { ResourceBinding } from '../api/binding.ts';
import { manifestYaml, type SharedParts } from '../branches/rendered/manifestYaml.ts';

export const SOURCE_COMMIT_ANNOTATION = 'flotilla.io/source-commit';

/**
 * The object's text stamped with the source commit; undefined when the previous file says the same thing apart from
 * the stamp: then the old bytes stay, so the stamp names the commit that last changed what this object became.
 * `parts`: as manifestYaml takes it, for objects that share unchanged parts (one template's, cluster after cluster).
 */
export function changedText(
  obj: Record<string, unknown> | ResourceBinding,
  previous: string | undefined,
  commit: string,
  parts?: SharedParts,
): string | undefined {
  const text = manifestYaml(stamp(obj, commit), parts);
  if (previous !== undefined && unstamp(previous) === unstamp(text)) return undefined;
  return text;
}

/**
 * Whether the object is the one a previous file parsed into (`previous`, as the yaml reader gives it), apart from
 * the stamp: then changedText would find the texts the same, and the object need not be written out to know it.
 * A sync that reschedules thousands of templates for a cluster change finds most bindings as they were; emitting each
 * only to compare it cost more than writing those that changed. Keys in the same order, values the same: the texts
 * are then the same bytes. Anything else (a key whose value is undefined, a reordered map) says "changed", and
 * changedText decides on the texts.
 */
export function sameAsParsed(obj: Record<string, unknown> | ResourceBinding, previous: unknown): boolean {
  const meta = (previous as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata;
  const commit = meta?.annotations?.[SOURCE_COMMIT_ANNOTATION];
  return typeof commit === 'string' && sameInOrder(stamp(obj, commit), previous);
}

function stamp(obj: Record<string, unknown> | ResourceBinding, commit: string): Record<string, unknown> {
  const meta = (obj.metadata ?? {}) as { annotations?: Record<string, string> };
  // Stamped already (a render's manifests are built with it): a copy would be the same keys in the same order.
  if (meta.annotations?.[SOURCE_COMMIT_ANNOTATION] === commit) return obj as Record<string, unknown>;
  return {
    ...obj,
    metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), [SOURCE_COMMIT_ANNOTATION]: commit } },
  };
}

function sameInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameInOrder(a[i], other[i])) return false;
    return true;
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i]) return false;
    if (!sameInOrder((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

const STAMP_LINE = new RegExp(`^(\\s*${SOURCE_COMMIT_ANNOTATION.replace(/[./]/g, '\\$&')}: ).*$`, 'm');
function unstamp(text: string): string {
  return text.replace(STAMP_LINE, '$1');
}
