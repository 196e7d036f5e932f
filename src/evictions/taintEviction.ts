// Karmada's NoExecute taint manager (controllers/cluster/taint_manager.go, util/helper/taint.go) for one binding on
// one cluster: evict now, at a time, or never.
import type { Taint } from '../api/cluster.ts';
import type { Toleration } from '../api/policy.ts';
import { toleratesTaint } from '../assignments/plugins/taintToleration.ts';

export type TaintVerdict =
  | { evict: true; taint: Taint; why: 'untolerated' }
  | { evict: true; taint: Taint; why: 'tolerationExpired'; tolerationSeconds: number }
  /** `at`: when the eviction becomes due; absent: tolerated for ever (or no NoExecute taint). */
  | { evict: false; at?: Date; taint?: Taint };

/**
 * A NoExecute taint no toleration covers evicts at once. When all are tolerated, the earliest timeAdded +
 * tolerationSeconds over the (taint, first tolerating toleration) pairs decides, and a time not in the future
 * evicts; tolerations without seconds never evict. A taint without timeAdded cannot expire (Karmada's admission
 * stamps it; a NoExecute taint written in Git without one is tolerated as long as a toleration covers it).
 */
export function taintEviction(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
  now: Date,
): TaintVerdict {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  let earliest: { at: number; taint: Taint; seconds: number } | undefined;
  for (const taint of noExecute) {
    const used = (tolerations ?? []).find((t) => toleratesTaint(t, taint));
    if (!used) return { evict: true, taint, why: 'untolerated' };
    if (used.tolerationSeconds === undefined || !taint.timeAdded) continue;
    const at = Date.parse(taint.timeAdded) + Math.max(0, used.tolerationSeconds) * 1000;
    if (!earliest || at < earliest.at) earliest = { at, taint, seconds: used.tolerationSeconds };
  }
  if (!earliest) return { evict: false };
  if (earliest.at <= now.getTime())
    return { evict: true, taint: earliest.taint, why: 'tolerationExpired', tolerationSeconds: earliest.seconds };
  return { evict: false, at: new Date(earliest.at), taint: earliest.taint };
}
