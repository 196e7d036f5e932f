import { nanoValue, parseQuantity } from '../quantities/canonicalQuantity.ts';
import { goSort } from '../sorting/goSort.ts';
import { relaxedJsonPath, CustomColumnsError } from './customColumns.ts';
import { findJsonPathResults, JsonPathExecutionError, JsonPathSyntaxError, parseJsonPath } from './jsonPath.ts';

/**
 * `kubectl get --sort-by=PATH` (kubectl/pkg/cmd/get/sorter.go): the order objects print in, by the first value the
 * path finds in each. Pure.
 */

/**
 * A path kubectl cannot sort by, or values it cannot compare; the message is kubectl's. `printed` is false where
 * kubectl's table printer met it: kubectl drops that error, and the table with it.
 */
export class SortByError extends Error {
  constructor(
    message: string,
    readonly printed = true,
  ) {
    super(message);
  }
}

/**
 * The objects' indices in the order kubectl prints them. `table` is kubectl's own table (no -o, or -o wide), whose
 * printer sorts the rows when there is more than one (and so never refuses one row); any other output sorts the
 * list. Go's sort is not stable and kubectl's comparison puts an object
 * without the field before any other, even another without it, so the order of such objects, and of equal values
 * past twelve objects, is the one Go's sort.Sort leaves, reproduced step for step.
 */
export function sortOrder(objects: readonly unknown[], sortBy: string, form: 'table' | 'list'): number[] {
  const order = objects.map((_, i) => i);
  if (objects.length < (form === 'table' ? 2 : 1)) return order;
  const printed = form !== 'table';
  const field = form === 'table' ? relaxedOrAsIs(sortBy) : relaxed(sortBy);
  let template;
  try {
    template = parseJsonPath(field);
  } catch (err) {
    if (err instanceof JsonPathSyntaxError)
      throw new SortByError(form === 'table' ? `sorting error: ${err.message}` : err.message, printed);
    throw err;
  }
  const found = (i: number): unknown[] | undefined => {
    try {
      return findJsonPathResults(template, objects[i], { allowMissingKeys: true })[0];
    } catch (err) {
      if (!(err instanceof JsonPathExecutionError)) throw err;
      throw new SortByError(
        form === 'table'
          ? `Failed to get values for [][]reflect.Value(nil) using ${field} (&errors.errorString{s:${JSON.stringify(err.message)}})`
          : err.message,
        printed,
      );
    }
  };
  // kubectl's table sorter reads every row first; the list sorter reads until one has the field.
  const firsts: (unknown[] | undefined)[] = [];
  for (let i = 0; i < objects.length; i++) {
    firsts.push(found(i));
    if (form === 'list' && firsts[i]?.length) break;
  }
  if (!firsts.some((values) => values?.length))
    throw new SortByError(`couldn't find any field with path ${JSON.stringify(field)} in the list of objects`, printed);
  const value = (i: number) => (form === 'table' ? firsts[i] : found(i));
  const where = form === 'table' ? '[][][]reflect.Value' : '*unstructured.Unstructured';
  const less = (i: number, j: number): boolean => {
    const a = value(i);
    if (!a?.length) return true;
    const b = value(j);
    if (!b?.length) return false;
    const compared = isLess(a[0], b[0]);
    if (typeof compared === 'string')
      throw new SortByError(`Field ${field} in ${where} is an unsortable type: interface, err: ${compared}`);
    return compared;
  };
  goSort(order, less);
  return order;
}

function relaxed(path: string): string {
  try {
    return relaxedJsonPath(path);
  } catch (err) {
    if (err instanceof CustomColumnsError) throw new SortByError(err.message);
    throw err;
  }
}

function relaxedOrAsIs(path: string): string {
  try {
    return relaxedJsonPath(path);
  } catch {
    return path;
  }
}

/**
 * sorter.go's isLess for two values of an unstructured object: nil first, numbers of one Go type by value, strings
 * as quantities when both are one ("512Mi" before "1Gi", "9" before "10") and else byte by byte; anything else, or
 * two values of different types, cannot be compared (the error's words).
 */
function isLess(a: unknown, b: unknown): boolean | string {
  if (a === null || a === undefined) return !(b === null || b === undefined);
  if (b === null || b === undefined) return false;
  const type = goType(a);
  if (type === 'string' || type === 'int64' || type === 'float64') {
    if (goType(b) !== type) return 'unsortable interface: interface';
    if (type !== 'string') return (a as number) < (b as number);
    const qa = parseQuantity(a as string);
    const qb = qa && parseQuantity(b as string);
    if (qa && qb) return nanoValue(qa) < nanoValue(qb);
    return Buffer.compare(Buffer.from(a as string), Buffer.from(b as string)) < 0;
  }
  return `unsortable type: ${type}`;
}

function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
