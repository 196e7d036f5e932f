/**
 * A printer column's JSONPath (`.spec.size`, `.status.conditions[0].type`: what additionalPrinterColumns use) with
 * missing keys allowed, as the CRD table convertor parses it: undefined when a step is missing. Shared by
 * `flotilla get` and the member emulator's Tables.
 */
export function printerColumnPath(obj: unknown, jsonPath: string): unknown {
  const steps = jsonPath
    .replace(/^\{?\.?/, '')
    .replace(/\}$/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((s) => s !== undefined && s !== '');
  let current: unknown = obj;
  for (const step of steps) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}
