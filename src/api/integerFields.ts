import { podSpecAt } from './podSpecPaths.ts';
import { goJsonKind } from './scalarFields.ts';

// Integer fields of built-in kinds a patch or a template can fill with something else (`replicas: "abc"`, `port: 80.5`,
// `replicas: 2147483648` past int32):
// kube-apiserver cannot decode the object into its Go type (a 400), where a store that kept it would feed the
// controllers a replica count they cannot read.

/** An integer-typed field holding something else. */
export interface NonIntegerValue {
  path: (string | number)[];
  value: unknown;
  /** The Go struct declaring it and the field's Go type, as the decode error names them. */
  struct: string;
  goType: 'int32' | 'int64';
}

const SPEC_FIELDS: Readonly<Record<string, { struct: string; fields: Record<string, 'int32' | 'int64'> }>> = {
  'apps/Deployment': {
    struct: 'DeploymentSpec',
    fields: {
      replicas: 'int32',
      minReadySeconds: 'int32',
      revisionHistoryLimit: 'int32',
      progressDeadlineSeconds: 'int32',
    },
  },
  'apps/StatefulSet': {
    struct: 'StatefulSetSpec',
    fields: { replicas: 'int32', minReadySeconds: 'int32', revisionHistoryLimit: 'int32' },
  },
  'apps/ReplicaSet': { struct: 'ReplicaSetSpec', fields: { replicas: 'int32', minReadySeconds: 'int32' } },
  'apps/DaemonSet': { struct: 'DaemonSetSpec', fields: { minReadySeconds: 'int32', revisionHistoryLimit: 'int32' } },
  '/ReplicationController': {
    struct: 'ReplicationControllerSpec',
    fields: { replicas: 'int32', minReadySeconds: 'int32' },
  },
  'coordination.k8s.io/Lease': {
    struct: 'LeaseSpec',
    fields: { leaseDurationSeconds: 'int32', leaseTransitions: 'int32' },
  },
  'batch/Job': {
    struct: 'JobSpec',
    fields: {
      parallelism: 'int32',
      completions: 'int32',
      backoffLimit: 'int32',
      activeDeadlineSeconds: 'int64',
      ttlSecondsAfterFinished: 'int32',
    },
  },
};

/** Every integer field above, a container's ports and a Service's ports holding a non-integer, in document order. */
export function nonIntegerValues(manifest: unknown, group: string, kind: string): NonIntegerValue[] {
  if (!isObject(manifest)) return [];
  const out: NonIntegerValue[] = [];
  const check = (value: unknown, path: (string | number)[], struct: string, goType: 'int32' | 'int64') => {
    if (value === undefined || value === null || (Number.isInteger(value) && fits(value as number, goType))) return;
    out.push({ path, value, struct, goType });
  };
  const spec = manifest.spec;
  const known = SPEC_FIELDS[`${group}/${kind}`];
  if (known && isObject(spec))
    for (const [field, goType] of Object.entries(known.fields))
      check(spec[field], ['spec', field], known.struct, goType);
  if (group === '' && kind === 'Service' && isObject(spec) && Array.isArray(spec.ports))
    spec.ports.forEach((port, i) => {
      if (!isObject(port)) return;
      check(port.port, ['spec', 'ports', i, 'port'], 'ServicePort', 'int32');
      check(port.nodePort, ['spec', 'ports', i, 'nodePort'], 'ServicePort', 'int32');
    });
  const pod = podSpecAt(manifest, group ? `${group}/v1` : 'v1', kind);
  if (pod)
    for (const list of ['initContainers', 'containers']) {
      const containers = pod.spec[list];
      if (!Array.isArray(containers)) continue;
      containers.forEach((c, ci) => {
        if (!isObject(c) || !Array.isArray(c.ports)) return;
        c.ports.forEach((p, pi) => {
          if (isObject(p))
            check(p.containerPort, [...pod.path, list, ci, 'ports', pi, 'containerPort'], 'ContainerPort', 'int32');
        });
      });
    }
  return out;
}

/** Go's encoding/json error for the first one: `cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`. */
export function integerFieldDecodeError(
  kind: string,
  version: string,
  found: readonly NonIntegerValue[],
): string | undefined {
  const [first] = found;
  if (!first) return undefined;
  const { path, value, struct, goType } = first;
  const what = goJsonKind(value);
  const field = path.filter((s) => typeof s === 'string').join('.');
  return `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${what} into Go struct field ${struct}.${field} of type ${goType}`;
}

/** Go's json decoding refuses a whole number its field's type cannot hold (OverflowInt) as it refuses 3.5. */
function fits(value: number, goType: 'int32' | 'int64'): boolean {
  return goType === 'int32' ? value >= -(2 ** 31) && value < 2 ** 31 : value >= -(2 ** 63) && value < 2 ** 63;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
