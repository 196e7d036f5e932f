import type { KubeObject, PrintColumn, ResourceType } from '../types.ts';
import { ageColumn, nameColumn } from './printColumns.ts';
import { humanDuration } from '../../time/humanDuration.ts';
import { findJsonPath } from '../../printers/printerColumnPath.ts';
import { storedJsonText } from '../../patches/patchJsonText.ts';

/** The resource types one CustomResourceDefinition serves: one per served version. */
export function crdResourceTypes(crd: KubeObject): ResourceType[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  return (spec.versions ?? [])
    .filter((v: any) => v.served !== false)
    .map(
      (v: any): ResourceType => ({
        group: spec.group,
        version: v.name,
        kind: names.kind,
        plural: names.plural,
        singular: names.singular ?? String(names.kind ?? '').toLowerCase(),
        namespaced: spec.scope !== 'Cluster',
        shortNames: names.shortNames ?? [],
        categories: names.categories ?? [],
        subresources: [
          ...(v.subresources?.status ? ['status' as const] : []),
          ...(v.subresources?.scale ? ['scale' as const] : []),
        ],
        tracksGeneration: true,
        columns: crdColumns(v.additionalPrinterColumns ?? []),
        crd: crd.metadata.name,
        ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
        strategicMerge: false,
      }),
    );
}

// serveDefaultColumnsIfEmpty: a version without printer columns is served as one printing only its age.
const DEFAULT_COLUMNS = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

function crdColumns(printerColumns: any[]): PrintColumn[] {
  const columns = printerColumns.length === 0 ? DEFAULT_COLUMNS : printerColumns;
  return [
    nameColumn,
    ...columns.map(
      (c: any): PrintColumn => ({
        name: c.name,
        type: c.type,
        ...(c.format ? { format: c.format } : {}),
        description:
          c.description ||
          (c === DEFAULT_COLUMNS[0]
            ? (ageColumn.description ?? '')
            : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`),
        priority: c.priority ? 1 : 0,
        cell: (o, now) => customResourceCell(c.type, findJsonPath(o, c.jsonPath), now),
      }),
    ),
  ];
}

/**
 * One cell of a custom resource's Table (apiextensions-apiserver's tableconvertor): nothing found, or a value not
 * of the column's type, is a nil cell, which kubectl prints blank; a string column prints what JSONPath prints.
 */
export function customResourceCell(
  type: string,
  found: { value: unknown } | undefined,
  now: number,
): string | number | boolean | null {
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

// JSONPath's PrintResults: objects and lists as encoding/json writes them, a null as text/template does.
function jsonPathText(value: unknown): string {
  if (value === null) return '<no value>';
  if (typeof value === 'object') return storedJsonText(value);
  return String(value);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// metav1.Time's UnmarshalQueryParameter then ConvertToHumanReadableDateType: empty is the zero time.
function dateCell(text: string, now: number): string {
  if (text === '' || text === 'null') return '<unknown>';
  const at = RFC3339.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? '<invalid>' : humanDuration(now - at);
}
