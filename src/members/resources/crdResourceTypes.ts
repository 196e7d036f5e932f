import type { KubeObject, PrintColumn, ResourceType } from '../types.ts';
import { ageColumn, nameColumn } from '../../printers/tableColumns.ts';
import { customResourceCell } from '../../printers/customResourceCell.ts';

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
        ...(Array.isArray(v.selectableFields)
          ? { selectableFields: v.selectableFields.map((f: any) => String(f?.jsonPath ?? '')) }
          : {}),
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
        cell: (o, now) => customResourceCell(c.type, o, c.jsonPath, now),
      }),
    ),
  ];
}
