type Step = { field: string } | { index: number } | { filter: { path: string[]; op: '==' | '!='; literal: unknown } };

const STEP =
  /^(?:\.([^.[\]]+)|\[(-?\d+)\]|\[\?\(@((?:\.[^.=!()\]]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|(-?\d+(?:\.\d+)?))\)\])/;

/** The steps of a printer column's JSONPath (fields, indexes, `[?(@.type=="Ready")]` filters); undefined if other. */
function parseJsonPath(jsonPath: string): Step[] | undefined {
  let rest = jsonPath.trim().replace(/^\{(.*)\}$/s, '$1');
  const steps: Step[] = [];
  while (rest !== '') {
    const m = STEP.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else
      steps.push({
        filter: {
          path: m[3]!.slice(1).split('.'),
          op: m[4] as '==' | '!=',
          literal: m[5] ?? m[6] ?? Number(m[7]),
        },
      });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

const field = (v: unknown, name: string): { value: unknown } | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, name)
    ? { value: (v as Record<string, unknown>)[name] }
    : undefined;

/**
 * The first value a printer column's JSONPath finds (`.spec.size`, `.status.conditions[-1].type`,
 * `[?(@.type=="Ready")]` filters: what additionalPrinterColumns use), as client-go's jsonpath with missing keys
 * allowed runs it for the CRD table convertor; undefined when nothing is found: a present null is found, a null on
 * the way is not.
 */
export function findJsonPath(obj: unknown, jsonPath: string): { value: unknown } | undefined {
  const steps = parseJsonPath(jsonPath);
  if (!steps) return undefined;
  let current: unknown[] = [obj];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || v === undefined) continue;
      if ('field' in step) {
        const found = field(v, step.field);
        if (found) next.push(found.value);
      } else if (!Array.isArray(v)) return undefined;
      else if ('index' in step) {
        const i = step.index < 0 ? step.index + v.length : step.index;
        if (i < 0 || i >= v.length) return undefined;
        next.push(v[i]);
      } else {
        const { path, op, literal } = step.filter;
        for (const item of v) {
          let at: { value: unknown } | undefined = { value: item };
          for (const name of path) at = at && field(at.value, name);
          if (at && (at.value === literal) === (op === '==')) next.push(item);
        }
      }
    }
    current = next;
  }
  return current.length ? { value: current[0] } : undefined;
}
