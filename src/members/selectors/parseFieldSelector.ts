import { badRequest } from '../ApiError.ts';
import type { KubeObject } from '../types.ts';

export interface FieldRequirement {
  path: string;
  op: '=' | '!=';
  value: string;
}

/** Parses `fieldSelector`: `metadata.name=web,spec.nodeName!=node-1` (ANDed; `==` means `=`). */
export function parseFieldSelector(text: string): FieldRequirement[] {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((raw) => {
      const m = raw.match(/^([A-Za-z0-9._-]+)\s*(==|=|!=)\s*(.*)$/);
      if (!m) throw badRequest(`invalid selector: '${raw}'; can't understand '${raw}'`);
      return { path: m[1]!, op: m[2] === '!=' ? '!=' : '=', value: m[3]! };
    });
}

/** Dotted-path lookup, stringified like the API server's field label conversion (missing = ''). */
export function matchesFieldRequirements(requirements: FieldRequirement[], object: KubeObject): boolean {
  return requirements.every((r) => {
    let node: unknown = object;
    for (const step of r.path.split('.'))
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined;
    const actual = node === undefined || node === null ? '' : String(node);
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}

/**
 * The fields each kind's field selector takes beyond metadata.name and metadata.namespace (the field label
 * conversions kube-apiserver registers: pkg/apis/core/v1/conversion.go, apps and batch), by `<group>/<plural>`.
 */
const SELECTABLE: Record<string, readonly string[]> = {
  '/pods': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
  ],
  '/events': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  '/nodes': ['spec.unschedulable'],
  '/replicationcontrollers': ['status.replicas'],
  '/services': ['spec.clusterIP', 'spec.type'],
  'apps/replicasets': ['status.replicas'],
  'batch/jobs': ['status.successful'],
  'events.k8s.io/events': ['regarding.kind', 'regarding.namespace', 'regarding.name', 'reason', 'type'],
};

/**
 * Refuses a field the kind's selector does not take, with kube-apiserver's words: the core kinds with their own
 * conversion say "field label not supported", the others name the two metadata fields they take.
 */
export function checkFieldSelector(resource: string, requirements: readonly FieldRequirement[]): void {
  const extra = SELECTABLE[resource];
  for (const r of requirements) {
    if (r.path === 'metadata.name' || r.path === 'metadata.namespace' || extra?.includes(r.path)) continue;
    throw badRequest(
      extra && resource.startsWith('/')
        ? `field label not supported: ${r.path}`
        : `"${r.path}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
  }
}
