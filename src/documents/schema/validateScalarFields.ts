// The boolean and numeric fields of the built-in kinds (api/scalarFields.ts): a template whose `paused: nope` or
// `minReadySeconds: "5"` kube-apiserver cannot decode is refused by Karmada's API server, and a member the object.
import { nonScalarValues, unmarshalText } from '../../api/scalarFields.ts';
import { fieldPathText } from '../../api/unknownFields.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

const RANGE = { int32: '-2147483648 and 2147483647', int64: '-9223372036854775808 and 9223372036854775807' };

/** Issues for a built-in kind's boolean and numeric fields holding something else; metadata is validateObjectMeta's. */
export function validateScalarFields(manifest: Record<string, unknown>): SchemaIssue[] {
  return nonScalarValues(manifest).map((found) => {
    const { path, value, type } = found;
    const field = fieldPathText(path);
    const takes = type === 'bool' ? 'true or false' : type === 'float64' ? 'a number' : `a whole number (${type})`;
    const shown = typeof value === 'string' ? `the string ${JSON.stringify(value)}` : JSON.stringify(value);
    const key = path[path.length - 1];
    return {
      path,
      code: 'INVALID_VALUE',
      message: `${field} is ${shown}, not ${takes}: Kubernetes cannot read it (${unmarshalText(found)}), so Karmada's API server refuses the template and every member's the object`,
      fix:
        type === 'bool'
          ? `write ${key}: true or false, unquoted`
          : `write ${key} as ${type === 'float64' ? 'a number' : `a whole number between ${RANGE[type]}`}, unquoted`,
    };
  });
}
