// Labels, annotations and finalizers the API server refuses (a label value with spaces, a key with two '/', 300 KiB
// of annotations): Karmada's refuses the template at creation, and every member the object it propagates.
import { objectAndTemplateMetaViolations } from '../../labels/objectMetaRules.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues of the object's own metadata and, for a built-in workload, its pod template's. */
export function validateObjectMeta(manifest: Record<string, unknown>): SchemaIssue[] {
  return objectAndTemplateMetaViolations(manifest).map((v) => ({
    path: v.path,
    code: 'INVALID_VALUE',
    message: v.message,
    fix: v.fix,
  }));
}
