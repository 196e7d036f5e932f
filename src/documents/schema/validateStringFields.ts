// Kubernetes types labels, annotations, ConfigMap data, selectors, a container's args and env values as strings. YAML
// makes `version: 1.0`, `prometheus.io/port: 9090`, `gpu: true` or `value: 8080` a number or a boolean, which every
// member's API server refuses ("cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type
// string"), and Karmada's at creation: a located problem here.
import { nonStringValues } from '../../api/stringFields.ts';
import { isSecret } from '../../interpreters/isSecret.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues for the template's string-typed fields that hold something else; none for custom resources. */
export function validateStringFields(manifest: Record<string, unknown>): SchemaIssue[] {
  return nonStringValues(manifest).map(({ path, value, what }) => {
    // Problems reach CI logs and PR comments (validate, plan): a Secret's value is named by its place, never shown.
    const secretValue = isSecret(manifest) && (path[0] === 'data' || path[0] === 'stringData');
    const shown = secretValue ? '(value not shown)' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    const key = path[path.length - 1];
    const type = Array.isArray(value) ? 'list' : value !== null && typeof value === 'object' ? 'mapping' : typeof value;
    return {
      path,
      code: 'INVALID_VALUE',
      message: `${what} has the ${type} ${shown} as its value: Kubernetes takes only a string there, and every member's API server would refuse the object`,
      fix:
        typeof value === 'object'
          ? 'write the value as one string'
          : `quote it: ${typeof key === 'number' ? '- ' : `${key}: `}"${secretValue ? '…' : shown}"`,
    };
  });
}
