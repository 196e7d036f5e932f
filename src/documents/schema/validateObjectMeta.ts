// Labels, annotations and finalizers the API server refuses (a label value with spaces, a key with two '/', 300 KiB
// of annotations): Karmada's refuses the template at creation, and every member the object it propagates.
import { podSpecAt } from '../../api/podSpecPaths.ts';
import { objectMetaViolations } from '../../labels/objectMetaRules.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues of the object's own metadata and, for a built-in workload, its pod template's. */
export function validateObjectMeta(manifest: Record<string, unknown>): SchemaIssue[] {
  const pod = podSpecAt(manifest);
  const template = pod && pod.path.length > 1 ? [...pod.path.slice(0, -1), 'metadata'] : undefined;
  let templateMeta: unknown = manifest;
  for (const step of template ?? []) templateMeta = (templateMeta as Record<string, unknown> | undefined)?.[step];
  return [
    ...objectMetaViolations(manifest.metadata),
    ...(template ? objectMetaViolations(templateMeta, template) : []),
  ].map((v) => ({ path: v.path, code: 'INVALID_VALUE', message: v.message, fix: v.fix }));
}
