// kube-apiserver decodes a resource quantity (`memory: 1Gi`, `cpu: 500m`) while it reads the object: text that is
// no quantity (`1e3Mi`, `1 Gi`, `1GB`) fails the whole object with a 400, on Karmada's API server and every member.
// A located problem here for the quantities templates hold most: containers' and the pod's resources, claims'
// storage, a ResourceQuota's hard limits, emptyDir sizes.
import { podSpecAt } from '../../api/podSpecPaths.ts';
import { parseQuantity } from '../../quantities/parseQuantity.ts';
import { isPlainObject, type SchemaIssue } from './validateAgainstSchema.ts';

const QUANTITY_FORMAT = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** Issues for quantities that are not quantities; none for kinds that hold none of these. */
export function validateQuantities(manifest: Record<string, unknown>): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const check = (list: unknown, path: (string | number)[]) => {
    if (!isPlainObject(list)) return;
    for (const [name, value] of Object.entries(list)) {
      if (value === null || ((typeof value === 'string' || typeof value === 'number') && parseQuantity(value)))
        continue;
      issues.push({
        path: [...path, name],
        code: 'INVALID_VALUE',
        message: `${name} ${JSON.stringify(value)} is not a quantity (quantities must match the regular expression '${QUANTITY_FORMAT}'): the API server cannot decode the ${String(manifest.kind)}`,
        fix: 'write a number with at most one suffix: 500m, 2, 1Gi, 1000Mi, 1e3',
      });
    }
  };
  const resources = (value: unknown, path: (string | number)[]) => {
    const r = objectAt(value);
    check(r?.requests, [...path, 'requests']);
    check(r?.limits, [...path, 'limits']);
  };
  const pod = podSpecAt(manifest);
  if (pod) {
    const at = [...pod.path];
    resources(pod.spec.resources, [...at, 'resources']);
    for (const list of ['initContainers', 'containers', 'ephemeralContainers'])
      arrayAt(pod.spec[list]).forEach((c, i) => resources(objectAt(c)?.resources, [...at, list, i, 'resources']));
    arrayAt(pod.spec.volumes).forEach((v, i) => {
      const size = objectAt(objectAt(v)?.emptyDir)?.sizeLimit;
      if (size !== undefined) check({ sizeLimit: size }, [...at, 'volumes', i, 'emptyDir']);
    });
  }
  const spec = objectAt(manifest.spec);
  if (manifest.apiVersion === 'v1' && manifest.kind === 'PersistentVolumeClaim')
    resources(spec?.resources, ['spec', 'resources']);
  if (manifest.apiVersion === 'apps/v1' && manifest.kind === 'StatefulSet')
    arrayAt(spec?.volumeClaimTemplates).forEach((t, i) =>
      resources(objectAt(objectAt(t)?.spec)?.resources, ['spec', 'volumeClaimTemplates', i, 'spec', 'resources']),
    );
  if (manifest.apiVersion === 'v1' && manifest.kind === 'ResourceQuota') check(spec?.hard, ['spec', 'hard']);
  return issues;
}

function objectAt(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function arrayAt(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
