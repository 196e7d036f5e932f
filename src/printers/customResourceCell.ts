import { humanDuration } from '../time/humanDuration.ts';
import {
  findJsonPathResults,
  goFloatText,
  JsonPathExecutionError,
  JsonPathSyntaxError,
  parseJsonPath,
  valueText,
} from './jsonPath.ts';

/** A Table cell as the API server sends it: null is Go's nil cell. */
export type TableCell = string | number | boolean | null;

/**
 * One cell of a custom resource's Table, as apiextensions-apiserver's tableconvertor computes it from an
 * additionalPrinterColumn: nothing found, or a value not of the column's type, is a nil cell; a string column holds
 * what JSONPath prints. The member emulator serves this cell and `flotilla get` prints it, so both show what kubectl
 * shows for a custom resource of a real API server. `now` is in milliseconds. Pure.
 */
export function customResourceCell(type: string, object: unknown, jsonPath: string, now: number): TableCell {
  const found = firstResult(object, jsonPath);
  if (!found) return null;
  const { value } = found;
  if (type === 'string') return jsonPathText(value);
  if (value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? dateCell(value, now) : null;
    default:
      return null;
  }
}

/**
 * A cell as kubectl's table printer writes it once decoded from the Table's JSON: a nil cell is blank, a whole number
 * was decoded as an int64, any other number as a float64 that Go's fmt prints (`1.2345675e+06`). Pure.
 */
export function tableCellText(cell: TableCell): string {
  if (cell === null) return '';
  if (typeof cell !== 'number') return String(cell);
  const json = JSON.stringify(cell);
  return /^-?\d+$/.test(json) ? json : goFloatText(cell);
}

/**
 * The first value the column's JSONPath finds, as the tableconvertor runs it (`{` + path + `}`, missing keys allowed);
 * undefined when it finds nothing or fails: a present null is found, a null on the way is not.
 */
function firstResult(object: unknown, jsonPath: string): { value: unknown } | undefined {
  try {
    const results = findJsonPathResults(parseJsonPath(`{${jsonPath}}`), object, { allowMissingKeys: true });
    return results[0]?.length ? { value: results[0][0] } : undefined;
  } catch (err) {
    if (err instanceof JsonPathExecutionError || err instanceof JsonPathSyntaxError) return undefined;
    throw err;
  }
}

// PrintResults of the value alone: a null is reflect.ValueOf(nil), which text/template prints as <no value>.
function jsonPathText(value: unknown): string {
  return value === null ? '<no value>' : valueText(value);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// metav1.Time's UnmarshalQueryParameter then ConvertToHumanReadableDateType: empty is the zero time.
function dateCell(text: string, now: number): string {
  if (text === '' || text === 'null') return '<unknown>';
  const at = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? '<invalid>' : humanDuration(now - at);
}
