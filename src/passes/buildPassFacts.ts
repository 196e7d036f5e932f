import type { ObjectRef } from '../api/kinds.ts';
import { identityKey } from '../branches/status/inventory.ts';
import type { ReconcileResult, StatusPassResult } from '../reconcile.ts';
import type { PassFacts } from './reconcilerStates.ts';

/** What any pass knows of itself, whatever its result. */
export interface PassRun {
  startedAt: number;
  renderedKey?: string;
  probed?: ReadonlySet<string>;
}

/** An object on a member, as the catch-up window and the drift check compare them. */
export function objectKey(cluster: string, ref: ObjectRef): string {
  return `${cluster}\0${identityKey(ref)}`;
}

/** What a pass found that decides what comes next (pure): the machine plans on these, never on the results themselves. */
export function buildPassFacts(kind: 'full', run: PassRun, result: ReconcileResult | undefined): PassFacts;
export function buildPassFacts(kind: 'status', run: PassRun, result: StatusPassResult | undefined): PassFacts;
export function buildPassFacts(
  kind: 'full' | 'status',
  run: PassRun,
  result: ReconcileResult | StatusPassResult | undefined,
): PassFacts {
  const common = {
    startedAt: run.startedAt,
    ...(run.renderedKey !== undefined ? { renderedKey: run.renderedKey } : {}),
    ...(run.probed ? { probed: run.probed } : {}),
  };
  if (!result) return { kind, ok: false, ...common };
  if (kind === 'full') {
    const full = result as ReconcileResult;
    const touched: string[] = [];
    for (const [cluster, d] of full.delivery?.clusters ?? []) {
      for (const r of d.results)
        if (r.action === 'created' || r.action === 'configured' || r.action === 'drift-repaired')
          touched.push(objectKey(cluster, r.ref));
    }
    return {
      kind,
      ok: true,
      writes: full.writes,
      touched,
      wroteStatus: Boolean(full.statusCommit),
      statusPaths: full.statusPaths,
      ...common,
    };
  }
  const status = result as StatusPassResult;
  return {
    kind,
    ok: true,
    ...common,
    missing: status.missing.map((o) => objectKey(o.cluster, o.ref)),
    unhealthy: status.unhealthy.map((o) => objectKey(o.cluster, o.ref)),
    wroteStatus: Boolean(status.statusCommit),
    statusPaths: status.changedPaths,
  };
}
