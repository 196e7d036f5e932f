// Labels, annotations and finalizers the API server refuses (a label value with spaces, a key with two '/', 300 KiB
// of annotations), and metadata fields it cannot decode at all (`labels: [a, b]`, `namespace: 5`): Karmada's refuses
// the template at creation, and every member the object it propagates.
import { malformedMetadata } from '../../api/metadataShapes.ts';
import {
  type MetaViolation,
  objectAndTemplateMetaViolations,
  objectMetaViolations,
} from '../../labels/objectMetaRules.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues of the object's own metadata and, for a built-in workload, its pod template's. */
export function validateObjectMeta(manifest: Record<string, unknown>): SchemaIssue[] {
  return [
    ...malformedMetadata(manifest).map(
      (m): SchemaIssue => ({
        path: m.path,
        code: 'INVALID_VALUE',
        message: `${m.field} is ${described(m.value)}, not ${m.takes}: Kubernetes cannot read it (cannot unmarshal it into Go struct field ${m.struct}.${m.field.replace(/\[\d+\]/g, '')} of type ${m.goType}), so Karmada's API server refuses the template and every member's the object`,
        fix: fixFor(m.takes, m.field),
      }),
    ),
    ...objectAndTemplateMetaViolations(manifest).map(asIssue),
  ];
}

/**
 * The label, annotation and finalizer rules alone, for Karmada's own kinds: karmada-apiserver holds a custom resource's
 * metadata to them (ValidateObjectMetaAccessor), the aggregated API server a Cluster's and the MultiClusterService
 * webhook its object's (ValidateObjectMeta); their schemas already refuse metadata of the wrong shape.
 */
export function validateMetadataRules(manifest: Record<string, unknown>): SchemaIssue[] {
  return objectMetaViolations(manifest.metadata).map(asIssue);
}

function asIssue(v: MetaViolation): SchemaIssue {
  return { path: v.path, code: 'INVALID_VALUE', message: v.message, fix: v.fix };
}

function described(value: unknown): string {
  const shown = JSON.stringify(value);
  const text = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
  if (Array.isArray(value)) return `the list ${text}`;
  if (value !== null && typeof value === 'object') return `the mapping ${text}`;
  return `the ${typeof value} ${text}`;
}

function fixFor(takes: string, field: string): string {
  const key = field.slice(field.lastIndexOf('.') + 1);
  if (takes === 'a mapping of strings') return `write it as a mapping, one key per line (${key}: {app: web})`;
  if (takes === 'a list of strings') return `write it as a list of strings (${key}: [example.com/cleanup])`;
  if (takes === 'a string') return `quote it: ${key.replace(/\[\d+\]$/, '')}: "..."`;
  return `write ${takes} there, or remove the field`;
}
