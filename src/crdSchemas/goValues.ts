// How kube-apiserver's messages print a decoded JSON value: Go's fmt verbs over what encoding/json (with the
// apiserver's UseNumber conversion) gives: int64 for a whole number, float64 otherwise, string, bool, nil,
// map[string]interface{} and []interface{}.
import { goQuote } from '../text/goQuote.ts';

/** fmt's %v of a float64: the shortest digits, in exponent form from 1e+06 up or below 1e-04 (strconv 'g', -1). */
export function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  // strconv's shortest 'g' (fmt's %v) takes the exponent form when exp < -4 || exp >= 6: 1e+06, 1.5e-05.
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(value);
}

/** fmt's %v of a decoded number: an integer prints as int64, anything else as a float64. */
export function goNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? BigInt(value).toString() : goFloat(value);
}

/** fmt's %#v of a decoded JSON value (what field.Error prints for a value that is not a scalar). */
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? goNumber(value) : goFloat(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]interface {}{${entries.map(([k, v]) => `${goQuote(k)}:${goSyntax(v)}`).join(', ')}}`;
}

/** How field.Error prints a bad value: numbers and booleans with %v, strings with %q, the rest with %#v. */
export function fieldValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return goQuote(value);
  return goSyntax(value);
}

/** fmt's %v of a decoded JSON value (kube-openapi's enum list: `[a b]`). */
export function goPlain(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goPlain).join(' ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([k, v]) => `${k}:${goPlain(v)}`).join(' ')}]`;
}
