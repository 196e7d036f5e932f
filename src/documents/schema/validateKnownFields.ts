// A built-in kind's field its Kubernetes type does not declare never takes effect: kubectl's strict validation makes
// the API server refuse the object (Karmada's at creation, as every member's), and without it the field is dropped,
// so `replica: 3` runs one replica. A located problem here, naming the field it was most likely meant to be.
import { fieldPathText, unknownFields, unknownKarmadaFields, type UnknownField } from '../../api/unknownFields.ts';
import { suggestName } from '../../text/suggestName.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues for the fields of a built-in kind its type does not declare; none for custom resources. */
export function validateKnownFields(manifest: Record<string, unknown>): SchemaIssue[] {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  return unknownFields(manifest, apiVersion, kind).map((u) => unknownFieldIssue(u, kind));
}

/**
 * The same for FederatedHPA, CronFederatedHPA, WorkloadRebalancer and ResourceInterpreterCustomization, against
 * Karmada's CRDs: a CronFederatedHPA rule's `timezone` would otherwise run in UTC, unnoticed.
 */
export function validateKarmadaKnownFields(manifest: Record<string, unknown>): SchemaIssue[] {
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  return unknownKarmadaFields(manifest, apiVersion, kind).map((u) => unknownFieldIssue(u, kind));
}

function unknownFieldIssue({ path, type, fields }: UnknownField, kind: string): SchemaIssue {
  const key = String(path[path.length - 1]);
  const suggestion = suggestName(key, fields);
  return {
    path,
    code: 'UNKNOWN_FIELD',
    message: `unknown field ${fieldPathText(path)}${suggestion ? `; did you mean ${suggestion}?` : ''} (${type} declares no ${key}: the API server refuses the ${kind} under kubectl's strict field validation and drops the field without it)`,
    fix: suggestion
      ? `rename it to ${suggestion}`
      : `remove it, or move it where it belongs (check its indentation): ${type}'s fields are ${fields.join(', ')}`,
  };
}
