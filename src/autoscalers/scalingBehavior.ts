/**
 * The autoscaling/v2 `behavior` of a FederatedHPA with Kubernetes' defaults filled in, as Karmada's mutating
 * webhook does (pkg/util/lifted/federatedhpa.go, lifted from Kubernetes' pkg/apis/autoscaling/v2/defaults.go).
 */

export type SelectPolicy = 'Max' | 'Min' | 'Disabled';

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  /** Undefined only for scale down, where the controller's --horizontal-pod-autoscaler-downscale-stabilization applies. */
  stabilizationWindowSeconds?: number;
  selectPolicy: SelectPolicy;
  policies: ScalingPolicy[];
}

export interface ScalingBehavior {
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
}

/** Karmada's and Kubernetes' default CPU utilization target when a FederatedHPA names no metric. */
export const DEFAULT_CPU_UTILIZATION = 80;

/** Scale up: no stabilization, the larger of +4 pods or +100% per 15 s. */
function defaultScaleUp(): ScalingRules {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** Scale down: -100% per 15 s; the window is left to the controller's downscale stabilization (default 300 s). */
function defaultScaleDown(): ScalingRules {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** The rules as written (any field may be missing), defaults for what is missing, field by field (copyHPAScalingRules). */
function fillRules(written: unknown, defaults: ScalingRules): ScalingRules {
  if (!written || typeof written !== 'object') return defaults;
  const w = written as Record<string, unknown>;
  const out = { ...defaults };
  if (w.selectPolicy === 'Max' || w.selectPolicy === 'Min' || w.selectPolicy === 'Disabled')
    out.selectPolicy = w.selectPolicy;
  if (typeof w.stabilizationWindowSeconds === 'number') out.stabilizationWindowSeconds = w.stabilizationWindowSeconds;
  if (Array.isArray(w.policies))
    out.policies = w.policies.flatMap((p) => {
      const r = p as Record<string, unknown>;
      if ((r.type !== 'Pods' && r.type !== 'Percent') || typeof r.value !== 'number') return [];
      return [
        { type: r.type, value: r.value, periodSeconds: typeof r.periodSeconds === 'number' ? r.periodSeconds : 0 },
      ];
    });
  return out;
}

/**
 * The behavior to apply. A FederatedHPA without `behavior` is normalised by Karmada without behaviors (only the
 * downscale stabilization and a scale-up limit of max(2x, 4)); that is returned as undefined so the caller takes
 * that path, as Karmada's reconcileAutoscaler does.
 */
export function scalingBehavior(written: unknown): ScalingBehavior | undefined {
  if (!written || typeof written !== 'object') return undefined;
  const w = written as Record<string, unknown>;
  return { scaleUp: fillRules(w.scaleUp, defaultScaleUp()), scaleDown: fillRules(w.scaleDown, defaultScaleDown()) };
}
