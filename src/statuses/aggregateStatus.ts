import type { Health } from './conditions.ts';
import { SUMMED_FIELDS, groupKind } from './reflectStatus.ts';

type Obj = Record<string, unknown>;

/** One member's line in a template's status: Karmada's AggregatedStatusItem. */
export interface AggregatedStatusItem {
  clusterName: string;
  applied: boolean;
  health: Health;
  /** Why it is not applied; absent when applied, so the text does not churn between "created" and "unchanged". */
  message?: string;
  /** The reflected status of the member object. */
  status?: Obj;
}

/**
 * The template's status from its members' reflected statuses, as Karmada's AggregateStatus does per kind:
 * workload counters are summed, load-balancer ingresses merged, PVC phases combined, Job progress combined.
 * Undefined for kinds Karmada does not aggregate (their template status is left alone).
 */
export function aggregateStatus(apiVersion: string, kind: string, items: readonly AggregatedStatusItem[]): Obj | undefined {
  const key = groupKind(apiVersion, kind);
  const statuses = items.map((i) => i.status).filter((s): s is Obj => Boolean(s));
  const summed = SUMMED_FIELDS[key];
  if (summed) {
    const out: Obj = {};
    for (const f of summed) out[f] = statuses.reduce((acc, s) => acc + (typeof s[f] === 'number' ? (s[f] as number) : 0), 0);
    return out;
  }
  switch (key) {
    case '/Service':
    case 'networking.k8s.io/Ingress': {
      const seen = new Map<string, Obj>();
      for (const s of statuses) {
        for (const ing of ((s.loadBalancer as { ingress?: Obj[] } | undefined)?.ingress ?? [])) seen.set(JSON.stringify(ing), ing);
      }
      const ingress = [...seen.keys()].sort().map((k) => seen.get(k)!);
      return { loadBalancer: ingress.length ? { ingress } : {} };
    }
    case '/PersistentVolumeClaim': {
      const phases = statuses.map((s) => s.phase as string | undefined);
      if (phases.length === 0) return undefined;
      if (phases.includes('Lost')) return { phase: 'Lost' };
      const notBound = phases.find((p) => p !== 'Bound');
      return { phase: notBound ?? 'Bound' };
    }
    case 'batch/Job': {
      const n = (s: Obj, f: string) => (typeof s[f] === 'number' ? (s[f] as number) : 0);
      const out: Obj = {
        active: statuses.reduce((a, s) => a + n(s, 'active'), 0),
        succeeded: statuses.reduce((a, s) => a + n(s, 'succeeded'), 0),
        failed: statuses.reduce((a, s) => a + n(s, 'failed'), 0),
      };
      const finished = (s: Obj, type: string) => ((s.conditions ?? []) as { type: string; status: string }[]).some((c) => c.type === type && c.status === 'True');
      const failedOn = items.filter((i) => i.status && finished(i.status, 'Failed')).map((i) => i.clusterName);
      if (failedOn.length > 0) out.conditions = [{ type: 'Failed', status: 'True', reason: 'JobFailed', message: `Job executed failed in member clusters ${failedOn.join(',')}` }];
      else if (items.length > 0 && items.every((i) => i.status && finished(i.status, 'Complete'))) {
        out.conditions = [{ type: 'Complete', status: 'True', reason: 'Completed', message: 'Job completed' }];
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Karmada's FullyApplied condition: True when every member reports the object applied. */
export function fullyApplied(items: readonly AggregatedStatusItem[]): { type: 'FullyApplied'; status: 'True' | 'False'; reason: string; message: string } {
  const notApplied = items.filter((i) => !i.applied).map((i) => i.clusterName);
  return notApplied.length === 0 && items.length > 0
    ? { type: 'FullyApplied', status: 'True', reason: 'FullyAppliedSuccess', message: 'All works have been successfully applied' }
    : { type: 'FullyApplied', status: 'False', reason: 'FullyAppliedFailed', message: `Failed to apply all works, see status.aggregatedStatus for details (not applied on ${notApplied.join(', ') || 'any cluster'})` };
}
