import { namespaceUsage, QUOTAS } from '../resources/quotaUsage.ts';
import type { StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { statusChanged } from './workloadPods.ts';

/**
 * Kubernetes' resource quota controller (pkg/controller/resourcequota syncResourceQuota): status.hard is spec.hard,
 * status.used what the namespace uses of each resource hard names, computed by the evaluators: pods (`pods` the
 * pods not terminal nor past their deletion grace, `count/pods` every pod, and their cpu, memory and
 * ephemeral-storage requests and limits, as resourcehelper.PodRequests and PodLimits sum them), the object counts
 * (`count/<plural>[.<group>]` and the legacy configmaps, secrets, services...). A resource no evaluator here knows
 * (services.nodeports, requests.storage, extended resources) is left out of used. Pod scopes Terminating,
 * NotTerminating, BestEffort and NotBestEffort are honoured; other scopes and scopeSelector are not.
 */
export function resourceQuotaController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const quota = store.get(QUOTAS, namespace, name);
    if (!quota || quota.metadata.deletionTimestamp || !namespace) return;
    const hard: Record<string, string> = quota.spec?.hard ?? {};
    const used = namespaceUsage(store, namespace, Object.keys(hard), quota.spec?.scopes ?? [], Date.parse(deps.now()));
    // Both omitempty in ResourceQuotaStatus.
    const status = {
      ...(Object.keys(hard).length > 0 ? { hard: { ...hard } } : {}),
      ...(Object.keys(used).length > 0 ? { used } : {}),
    };
    if (statusChanged(quota, status))
      store.update(registry.byResourceKey(QUOTAS)!, { ...structuredClone(quota), status });
  }

  const inNamespace = (namespace: string | undefined) =>
    store.list(QUOTAS, namespace).map((q) => keyOf(q.metadata.namespace, q.metadata.name!));

  return {
    name: 'resourcequota',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === QUOTAS && event.type !== 'DELETED') return [keyOf(o.metadata.namespace, o.metadata.name!)];
      // Any namespaced object can be counted (count/<resource>): its namespace's quotas look again.
      return o.metadata.namespace ? inNamespace(o.metadata.namespace) : [];
    },
    reconcile,
    initialKeys: () => inNamespace(undefined),
  };
}
