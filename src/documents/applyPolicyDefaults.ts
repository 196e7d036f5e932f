import { MCS_API_VERSION } from '../api/kinds.ts';
import type { Placement, PropagationPolicy } from '../api/policy.ts';

/**
 * Karmada's CRD and mutating-webhook defaults for PP/CPP (pkg/webhook/propagationpolicy/mutating.go),
 * applied once at parse time so every later stage sees what Karmada would have stored.
 */
export function applyPolicyDefaults(policy: PropagationPolicy): PropagationPolicy {
  const namespaced = policy.kind === 'PropagationPolicy';
  const namespace = namespaced ? policy.metadata.namespace || 'default' : undefined;
  const spec = policy.spec;
  const selectors = spec.resourceSelectors.map((s) => (namespaced && !s.namespace ? { ...s, namespace } : s));
  // Karmada's helper.ContainsServiceImport: the MCS API's ServiceImport, by kind and apiVersion both.
  const selectsServiceImport = selectors.some((s) => s.kind === 'ServiceImport' && s.apiVersion === MCS_API_VERSION);
  return {
    ...policy,
    metadata: namespace ? { ...policy.metadata, namespace } : policy.metadata,
    spec: {
      ...spec,
      resourceSelectors: selectors,
      priority: spec.priority ?? 0,
      preemption: spec.preemption ?? 'Never',
      conflictResolution: spec.conflictResolution ?? 'Abort',
      schedulerName: spec.schedulerName ?? 'default-scheduler',
      // `association`, the field propagateDeps replaced, is declared in Karmada's API but read by no controller.
      propagateDeps: selectsServiceImport ? true : (spec.propagateDeps ?? false),
      placement: defaultPlacement(spec.placement ?? {}),
      ...(spec.failover ? { failover: defaultFailover(spec.failover) } : {}),
    },
  };
}

function defaultPlacement(placement: Placement): Placement {
  const out: Placement = { ...placement };
  if (placement.spreadConstraints) {
    out.spreadConstraints = placement.spreadConstraints.map((c) => ({
      ...c,
      ...(!c.spreadByField && !c.spreadByLabel ? { spreadByField: 'cluster' as const } : {}),
      minGroups: c.minGroups || 1,
    }));
  }
  if (placement.replicaScheduling) {
    // The CRD defaults the type to Divided; the webhook then gives Divided a Weighted preference.
    const type = placement.replicaScheduling.replicaSchedulingType ?? 'Divided';
    out.replicaScheduling = {
      ...placement.replicaScheduling,
      replicaSchedulingType: type,
      ...(type === 'Divided' && !placement.replicaScheduling.replicaDivisionPreference
        ? { replicaDivisionPreference: 'Weighted' as const }
        : {}),
    };
  }
  return out;
}

function defaultFailover(failover: unknown): unknown {
  const f = failover as { application?: Record<string, unknown>; cluster?: Record<string, unknown> };
  const application = f.application
    ? (() => {
        const purgeMode = (f.application.purgeMode as string | undefined) ?? 'Gracefully';
        const decision = (f.application.decisionConditions as Record<string, unknown> | undefined) ?? {};
        return {
          ...f.application,
          decisionConditions: { ...decision, tolerationSeconds: decision.tolerationSeconds ?? 300 },
          purgeMode,
          ...(purgeMode === 'Gracefully' && f.application.gracePeriodSeconds === undefined
            ? { gracePeriodSeconds: 600 }
            : {}),
        };
      })()
    : undefined;
  const cluster = f.cluster
    ? { ...f.cluster, purgeMode: (f.cluster.purgeMode as string | undefined) ?? 'Gracefully' }
    : undefined;
  return { ...f, ...(application ? { application } : {}), ...(cluster ? { cluster } : {}) };
}
