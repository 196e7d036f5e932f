// Identity is the template's: an override may change what an object holds on one cluster, never which object it is.
// A rule that would rewrite apiVersion, kind, metadata.namespace or metadata.name is refused, since otherwise a policy
// in one namespace could overwrite (and, with the template gone, prune) an object of another team or of kube-system,
// while every path, binding and plan line still names the template.
import { parseJsonPointer } from '../patches/jsonPatch.ts';
import { isManifest, type Manifest } from './overrideStep.ts';

/** The identity fields, as they are named in messages. */
export const IDENTITY_FIELDS = ['apiVersion', 'kind', 'metadata.namespace', 'metadata.name'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export interface IdentityChange {
  field: IdentityField;
  /** undefined: absent. */
  from: unknown;
  to: unknown;
}

/** The identity fields that differ between two versions of a manifest. */
export function identityChanges(before: Manifest, after: Manifest): IdentityChange[] {
  const changes: IdentityChange[] = [];
  for (const field of IDENTITY_FIELDS) {
    const from = identityValue(before, field);
    const to = identityValue(after, field);
    if (from !== to) changes.push({ field, from, to });
  }
  return changes;
}

function identityValue(manifest: Manifest, field: IdentityField): unknown {
  if (field === 'apiVersion' || field === 'kind') return manifest[field];
  const metadata = manifest.metadata;
  if (!isManifest(metadata)) return undefined;
  const value = metadata[field === 'metadata.name' ? 'name' : 'namespace'];
  // Only a string is an identity; an object or list there is as good as absent to the API server (and refused by it).
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The identity field a JSON pointer writes to, at or below it: '' (the whole object) and /metadata reach
 * metadata.name and metadata.namespace; undefined when the pointer stays clear of all four. An unparsable
 * pointer is another rule's problem.
 */
export function identityFieldAt(pointer: string): IdentityField | undefined {
  const tokens = parseJsonPointer(pointer);
  if (!tokens) return undefined;
  const [first, second] = tokens;
  if (first === undefined) return 'metadata.name';
  if (first === 'apiVersion' || first === 'kind') return first;
  if (first !== 'metadata') return undefined;
  if (second === undefined || second === 'name') return 'metadata.name';
  if (second === 'namespace') return 'metadata.namespace';
  return undefined;
}
