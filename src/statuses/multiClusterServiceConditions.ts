// The status conditions Karmada sets on a CrossCluster MultiClusterService, as a pure function of what the rendered
// branch and the status branch say: ServiceApplied (pkg/controllers/multiclusterservice/mcs_controller.go, after the
// Service's binding is made or fails) and EndpointSliceDispatched (endpointslice_dispatch_controller.go, after the
// providers' slices are dispatched to the consumers). Flotilla's dispatch is the consumers' appliers and agents
// applying `<provider>-<slice>`, so "dispatched" is read from their inventories: True once every consumer holds every
// slice it should; while some are still on their way (a status period, or a Pull agent's next pass) the condition
// is left as it was, and Flotilla never sets it False, since the status side sees no consumer's failed apply.
import { describeRef } from '../api/kinds.ts';
import type { MultiClusterService } from '../api/multiClusterService.ts';
import {
  MULTI_CLUSTER_SERVICE_STATUS_FOLDER,
  multiClusterServiceStatusPath,
  parseMultiClusterServiceConditions,
  serializeMultiClusterServiceStatus,
  type StatusCondition,
} from '../branches/status/multiClusterServiceStatus.ts';

export interface MultiClusterServiceFacts {
  mcs: MultiClusterService;
  /** The rendered commit holds its Service's binding, claimed by this MultiClusterService. */
  serviceClaimed: boolean;
  /** Per consumer, the dispatched slices it should hold now and those its inventory holds. */
  dispatch: { consumer: string; expected: readonly string[]; held: ReadonlySet<string> }[];
}

export interface MultiClusterServiceStatusEdits {
  /** Status branch path → new text, or null to delete. */
  edits: Map<string, string | null>;
  /** One line per changed file, for the status commit message. */
  lines: string[];
}

/** meta.SetStatusCondition: the transition time moves only when the status does. */
function setCondition(conditions: StatusCondition[], next: Omit<StatusCondition, 'lastTransitionTime'>, now: Date) {
  const i = conditions.findIndex((c) => c.type === next.type);
  const old = i >= 0 ? conditions[i] : undefined;
  const lastTransitionTime =
    old && old.status === next.status ? old.lastTransitionTime : now.toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = { ...next, lastTransitionTime };
  if (i >= 0) conditions[i] = condition;
  else conditions.push(condition);
}

/**
 * Each CrossCluster MultiClusterService's status file (`facts`: only those), rewritten when a condition changed;
 * the files of MultiClusterServices gone from the rendered branch (or no longer CrossCluster) are deleted.
 * `existing`: the status branch's files under multiclusterservices/, path → text.
 */
export function multiClusterServiceStatusEdits(
  facts: readonly MultiClusterServiceFacts[],
  existing: ReadonlyMap<string, string>,
  now: Date,
): MultiClusterServiceStatusEdits {
  const edits = new Map<string, string | null>();
  const lines: string[] = [];
  const kept = new Set<string>();
  for (const { mcs, serviceClaimed, dispatch } of facts) {
    const namespace = mcs.metadata.namespace ?? 'default';
    const name = mcs.metadata.name;
    const path = multiClusterServiceStatusPath(namespace, name);
    kept.add(path);
    const before = existing.get(path);
    const conditions = parseMultiClusterServiceConditions(before).map((c) => ({ ...c }));
    setCondition(
      conditions,
      serviceClaimed
        ? {
            type: 'ServiceApplied',
            status: 'True',
            reason: 'ServiceAppliedSucceed',
            message: 'Service is propagated to target clusters.',
          }
        : {
            type: 'ServiceApplied',
            status: 'False',
            reason: 'ServiceAppliedFailed',
            message: `services "${name}" not found`,
          },
      now,
    );
    const expected = dispatch.reduce((n, d) => n + d.expected.length, 0);
    if (expected > 0 && dispatch.every((d) => d.expected.every((s) => d.held.has(s))))
      setCondition(
        conditions,
        {
          type: 'EndpointSliceDispatched',
          status: 'True',
          reason: 'EndpointSliceDispatchedSucceed',
          message: 'EndpointSlice are dispatched successfully',
        },
        now,
      );
    const text = serializeMultiClusterServiceStatus({
      apiVersion: mcs.apiVersion,
      kind: mcs.kind,
      metadata: { namespace, name },
      status: { conditions },
    });
    if (text === before) continue;
    edits.set(path, text);
    lines.push(
      `${describeRef({ kind: 'MultiClusterService', namespace, name })}: ${conditions.map((c) => `${c.type}=${c.status} (${c.reason})`).join(', ')}`,
    );
  }
  for (const path of existing.keys()) {
    if (kept.has(path) || !path.startsWith(MULTI_CLUSTER_SERVICE_STATUS_FOLDER)) continue;
    edits.set(path, null);
    const [, namespace, name] = /^[^/]+\/([^/]+)\/(.+)\.yaml$/.exec(path) ?? [];
    lines.push(
      `MultiClusterService ${namespace}/${name}: status removed (no CrossCluster MultiClusterService any more)`,
    );
  }
  return { edits, lines };
}
