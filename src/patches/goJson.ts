import type { GoType } from '../api/policyGoTypes.ts';
import { byBytes, storedJsonText, stringifyJsonLikeGo } from './patchJsonText.ts';

// Where Karmada writes one of its Go values into an annotation (the applied placement, the applied overrides), the
// bytes are encoding/json's: a struct's fields in declaration order, `omitempty` fields left out when empty, a nil
// pointer, slice or map as null, map keys sorted by their bytes, fields the struct does not declare gone, and <, >, &
// escaped. An apiextensions JSON value is a struct, which omitempty never leaves out: null when unset.

/** `value`, decoded into the Go type `type`, as Go's json.Marshal writes it. */
export function goJsonText(value: unknown, type: GoType): string {
  return write(value, type).text;
}

const absent = (v: unknown): boolean => v === undefined || v === null;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text, and whether Go's omitempty counts the value empty ("", 0, false, nil, an empty slice or map). */
function write(value: unknown, type: GoType): { text: string; empty: boolean } {
  switch (type.go) {
    case 'string':
      return absent(value) ? { text: '""', empty: true } : { text: stringifyJsonLikeGo(value), empty: value === '' };
    case 'int':
      return absent(value) ? { text: '0', empty: true } : { text: stringifyJsonLikeGo(value), empty: value === 0 };
    case 'bool':
      return { text: value === true ? 'true' : 'false', empty: value !== true };
    case 'json':
      return { text: storedJsonText(value), empty: false };
    case 'pointer':
      return absent(value) ? { text: 'null', empty: true } : { text: write(value, type.to).text, empty: false };
    case 'slice':
      if (!Array.isArray(value)) return { text: 'null', empty: true };
      return { text: `[${value.map((item) => goJsonText(item, type.of)).join(',')}]`, empty: value.length === 0 };
    case 'map': {
      if (!isObject(value)) return { text: 'null', empty: true };
      const keys = Object.keys(value).sort(byBytes);
      const text = `{${keys.map((k) => `${stringifyJsonLikeGo(k)}:${goJsonText(value[k], type.of)}`).join(',')}}`;
      return { text, empty: keys.length === 0 };
    }
    case 'struct': {
      const given = isObject(value) ? value : {};
      const fields: string[] = [];
      for (const [name, field] of Object.entries(type.fields)) {
        const { text, empty } = write(given[name], field.type);
        if (!(empty && field.omitempty)) fields.push(`"${name}":${text}`);
      }
      return { text: `{${fields.join(',')}}`, empty: false };
    }
  }
}
