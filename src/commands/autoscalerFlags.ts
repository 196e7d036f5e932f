import { UsageError } from '../errors/UsageError.ts';
import type { AutoscalerOptions } from '../statuses/decideFederatedHpas.ts';
import { durationFlagMs } from './durationFlag.ts';

/**
 * karmada-controller-manager's FederatedHPA flags (pkg/controllers/federatedhpa/config/types.go AddFlags), same
 * names and defaults, for `flotilla run`.
 */
export const AUTOSCALER_FLAG_OPTIONS = {
  'horizontal-pod-autoscaler-sync-period': { type: 'string', default: '15s' },
  'horizontal-pod-autoscaler-tolerance': { type: 'string', default: '0.1' },
  'horizontal-pod-autoscaler-downscale-stabilization': { type: 'string', default: '5m' },
  'horizontal-pod-autoscaler-cpu-initialization-period': { type: 'string', default: '5m' },
  'horizontal-pod-autoscaler-initial-readiness-delay': { type: 'string', default: '30s' },
} as const;

export type AutoscalerFlagValues = { [K in keyof typeof AUTOSCALER_FLAG_OPTIONS]?: string | undefined };

export const AUTOSCALER_FLAGS_USAGE = `[--horizontal-pod-autoscaler-sync-period 15s] [--horizontal-pod-autoscaler-tolerance 0.1]
       [--horizontal-pod-autoscaler-downscale-stabilization 5m] [--horizontal-pod-autoscaler-cpu-initialization-period 5m]
       [--horizontal-pod-autoscaler-initial-readiness-delay 30s]`;

function duration(flag: keyof typeof AUTOSCALER_FLAG_OPTIONS, text: string | undefined, least: number): number {
  const value = text ?? AUTOSCALER_FLAG_OPTIONS[flag].default;
  const ms = durationFlagMs(flag, value);
  if (ms < least)
    throw new UsageError(
      `--${flag} ${value}: must be more than 0, as each FederatedHPA is evaluated that often; e.g. 15s`,
    );
  return ms;
}

/**
 * The flags as the status side's AutoscalerOptions. The tolerance is the smallest change of the metric's ratio to
 * its target that scales (0.1: within 10% the count stays), a number of 0 or more.
 */
export function parseAutoscalerFlags(values: AutoscalerFlagValues): AutoscalerOptions {
  const toleranceText =
    values['horizontal-pod-autoscaler-tolerance'] ??
    AUTOSCALER_FLAG_OPTIONS['horizontal-pod-autoscaler-tolerance'].default;
  const tolerance = /^\s*[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?\s*$/.test(toleranceText)
    ? Number(toleranceText)
    : Number.NaN;
  if (!Number.isFinite(tolerance))
    throw new UsageError(
      `--horizontal-pod-autoscaler-tolerance ${toleranceText}: write a number of 0 or more, e.g. 0.1 (a change of the ratio to the target within 10% does not scale)`,
    );
  return {
    syncPeriodMs: duration('horizontal-pod-autoscaler-sync-period', values['horizontal-pod-autoscaler-sync-period'], 1),
    tolerance,
    downscaleStabilizationMs: duration(
      'horizontal-pod-autoscaler-downscale-stabilization',
      values['horizontal-pod-autoscaler-downscale-stabilization'],
      0,
    ),
    cpuInitializationPeriodMs: duration(
      'horizontal-pod-autoscaler-cpu-initialization-period',
      values['horizontal-pod-autoscaler-cpu-initialization-period'],
      0,
    ),
    initialReadinessDelayMs: duration(
      'horizontal-pod-autoscaler-initial-readiness-delay',
      values['horizontal-pod-autoscaler-initial-readiness-delay'],
      0,
    ),
  };
}
