import type { KubeObject, ResourceType } from '../types.ts';

/**
 * A meta.k8s.io/v1 Table, which is what `kubectl get` prints: it has no printers of its own, so without this
 * every kind shows only NAME and AGE. Rows carry the object's metadata (or the whole object when asked).
 */
export function renderTable(
  rt: ResourceType,
  objects: KubeObject[],
  now: number,
  options: {
    includeObject: 'None' | 'Metadata' | 'Object';
    resourceVersion: string;
    continueToken?: string;
    headers?: boolean;
  },
): object {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {
      resourceVersion: options.resourceVersion,
      ...(options.continueToken ? { continue: options.continueToken } : {}),
    },
    columnDefinitions:
      options.headers === false
        ? []
        : rt.columns.map((c) => ({
            name: c.name,
            type: c.type,
            format: c.format ?? '',
            description: c.description ?? '',
            priority: c.priority,
          })),
    rows: objects.map((o) => ({
      cells: rt.columns.map((c) => c.cell(o, now)),
      ...(options.includeObject === 'None'
        ? {}
        : {
            object:
              options.includeObject === 'Object'
                ? o
                : {
                    kind: 'PartialObjectMetadata',
                    apiVersion: 'meta.k8s.io/v1',
                    metadata: (({ managedFields: _m, ...rest }) => rest)(o.metadata),
                  },
          }),
    })),
  };
}
