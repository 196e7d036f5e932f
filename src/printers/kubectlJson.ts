import { byBytes, stringifyJsonLikeGo } from '../patches/patchJsonText.ts';

/**
 * A JSON value as `kubectl get -o json` prints an object it holds as unstructured: cli-runtime's JSONPrinter is Go's
 * json.MarshalIndent with four spaces, so every map's keys are in byte order (`"10"` before `"9"`, which a JavaScript
 * object cannot hold in that order), and <, >, & and U+2028/U+2029 are written as \u escapes. Ends in a newline. Pure.
 */
export function kubectlJson(value: unknown): string {
  return `${indented(value, '')}\n`;
}

function indented(value: unknown, indent: string): string {
  if (value === undefined || value === null) return 'null';
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${indented(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort(byBytes);
    if (keys.length === 0) return '{}';
    const members = keys.map(
      (k) => `${inner}${stringifyJsonLikeGo(k)}: ${indented((value as Record<string, unknown>)[k], inner)}`,
    );
    return `{\n${members.join(',\n')}\n${indent}}`;
  }
  return stringifyJsonLikeGo(value);
}
