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
 * A NoExecute taint no toleration covers evicts at once. When all are tolerated, the tolerations used (the first that
 * covers each taint) decide: each with tolerationSeconds against every NoExecute taint it tolerates, the earliest
 * timeAdded + tolerationSeconds, and a time not in the future evicts (Karmada's GetMinTolerationTime: a catch-all
 * toleration used for one taint also times out another, older one that a toleration without seconds covers first).
 * Tolerations without seconds never evict. A taint without timeAdded cannot expire (Karmada's admission stamps it; a
 * NoExecute taint written in Git without one is tolerated as long as a toleration covers it).
 */
export function taintEviction(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
  now: Date,
): TaintVerdict {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  const used = new Set<Toleration>();
  for (const taint of noExecute) {
    const first = (tolerations ?? []).find((t) => toleratesTaint(t, taint));
    if (!first) return { evict: true, taint, why: 'untolerated' };
    used.add(first);
  }
  let earliest: { at: number; taint: Taint; seconds: number } | undefined;
  for (const toleration of used) {
    if (toleration.tolerationSeconds === undefined) continue;
    for (const taint of noExecute) {
      if (!taint.timeAdded || !toleratesTaint(toleration, taint)) continue;
      const at = Date.parse(taint.timeAdded) + Math.max(0, toleration.tolerationSeconds) * 1000;
      if (!earliest || at < earliest.at) earliest = { at, taint, seconds: toleration.tolerationSeconds };
    }
  }
  if (!earliest) return { evict: false };
  if (earliest.at <= now.getTime())
    return { evict: true, taint: earliest.taint, why: 'tolerationExpired', tolerationSeconds: earliest.seconds };
  return { evict: false, at: new Date(earliest.at), taint: earliest.taint };
}
