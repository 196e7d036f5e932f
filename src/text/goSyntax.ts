import { goQuote } from './goQuote.ts';

/**
 * Go's %#v of a slice of a string type (`[]string{"a", "b"}`, `[]core.ResourceQuotaScope{"Terminating"}`; nil when
 * absent), as the API server's field errors print a list value: each element as strconv.Quote writes it. Pure.
 */
export function goStringSliceText(values: unknown, type = 'string'): string {
  if (!Array.isArray(values)) return `[]${type}(nil)`;
  return `[]${type}{${values.map((v) => goQuote(String(v))).join(', ')}}`;
}
