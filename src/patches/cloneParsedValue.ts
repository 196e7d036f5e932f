import { setDataKey } from '../yaml/setDataKey.ts';

/**
 * What structuredClone gives for a parsed YAML or JSON value (plain maps and lists of scalars, one copy for a part
 * the YAML shares through an alias, holes kept), several times faster: the serializer goes through every string, and
 * a cold render copied every template (pruneForMember) and every overridden manifest (JSON patches) so. Anything else
 * (a Date, a class instance, an array with other properties) is left to structuredClone; a function or a symbol, which
 * structuredClone refuses and no parser gives, is returned as it is.
 */
export function cloneParsedValue(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value) && proto === Array.prototype) {
    const list = value as unknown[];
    const out = new Array<unknown>(list.length);
    copies.set(value, out);
    let own = 0;
    for (let i = 0; i < list.length; i++) {
      if (!Object.hasOwn(list, i)) continue; // a hole stays one
      out[i] = cloneParsedValue(list[i], copies);
      own++;
    }
    if (Object.keys(list).length === own) return out;
  } else if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    copies.set(value, out);
    const map = value as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      // A `__proto__` key is data, as structuredClone (and the YAML reader) keeps it, not the prototype.
      setDataKey(out, key, cloneParsedValue(map[key], copies));
    }
    return out;
  }
  const cloned = structuredClone(value);
  copies.set(value, cloned);
  return cloned;
}
