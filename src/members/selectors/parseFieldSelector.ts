import { badRequest } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';

export interface FieldRequirement {
  path: string;
  op: '=' | '!=';
  value: string;
}

/** Parses `fieldSelector`: `metadata.name=web,spec.nodeName!=node-1` (ANDed; `==` means `=`). */
export function parseFieldSelector(text: string): FieldRequirement[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((raw) => {
      const m = raw.match(/^([A-Za-z0-9._-]+)\s*(==|=|!=)\s*(.*)$/);
      if (!m) throw badRequest(`invalid selector: '${raw}'; can't understand '${raw}'`);
      return { path: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! };
    });
}

/** Dotted-path lookup, stringified like the API server's field label conversion (missing = ''). */
export function matchesFieldRequirements(requirements: FieldRequirement[], object: KubeObject): boolean {
  return requirements.every((r) => {
    let node: unknown = object;
    for (const step of r.path.split('.'))
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined;
    const actual = node === undefined || node === null ? '' : String(node);
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}
