import type { KubeObject, PrintColumn, ResourceType } from '../types.ts';
import { ageColumn, nameColumn } from './printColumns.ts';
import { humanDuration } from '../../time/humanDuration.ts';
import { printerColumnPath } from '../../printers/printerColumnPath.ts';

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

function crdColumns(printerColumns: any[]): PrintColumn[] {
  if (printerColumns.length === 0) return [nameColumn, ageColumn];
  return [
    nameColumn,
    ...printerColumns.map(
      (c): PrintColumn => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        description: c.description ?? '',
        priority: c.priority ? 1 : 0,
        cell: (o, now) => {
          const value = printerColumnPath(o, c.jsonPath);
          if (c.type === 'date')
            return typeof value === 'string' ? humanDuration(now - Date.parse(value)) : '<unknown>';
          if (value === undefined) return c.type === 'integer' || c.type === 'number' ? 0 : '';
          return typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
        },
      }),
    ),
  ];
}
