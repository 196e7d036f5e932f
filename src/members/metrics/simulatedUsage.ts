import { formatQuantity, nanoValue, parseQuantity } from '../../quantities/canonicalQuantity.ts';
import type { KubeObject } from '../types.ts';

// A simulated pod's resource usage: no containers run, so what metrics-server would scrape from the kubelet is
// read from annotations instead. Tests and demos raise the annotation to drive `kubectl top` and the HPA.

/** CPU usage of the pod as a quantity, e.g. `150m`; absent (or not a quantity) means 0. */
export const CPU_USAGE_ANNOTATION = 'emulator.flotilla.io/cpu-usage';
/** Memory usage of the pod as a quantity, e.g. `64Mi`; absent (or not a quantity) means 0. */
export const MEMORY_USAGE_ANNOTATION = 'emulator.flotilla.io/memory-usage';

export interface PodUsage {
  /** nanocores */
  cpu: bigint;
  /** bytes, nano units (quantity nanoValue / 1e9 rounded down) */
  memory: bigint;
}

function annotationValue(annotations: Record<string, string> | undefined, key: string): bigint | undefined {
  const text = annotations?.[key];
  const q = text === undefined ? undefined : parseQuantity(text.trim());
  if (!q) return undefined;
  const nano = nanoValue(q);
  return nano < 0n ? 0n : nano;
}

/**
 * The pod's usage: its own annotation, else the one on the pod template of the controller that owns it (a
 * template change reaches pods only through new pods, so this lets an annotation on the template count for
 * pods stamped out before it).
 */
export function podUsage(pod: KubeObject, ownerTemplateAnnotations?: Record<string, string>): PodUsage {
  const read = (key: string) =>
    annotationValue(pod.metadata.annotations, key) ?? annotationValue(ownerTemplateAnnotations, key) ?? 0n;
  return { cpu: read(CPU_USAGE_ANNOTATION), memory: read(MEMORY_USAGE_ANNOTATION) / 1_000_000_000n };
}

/** Splits a pod total over its containers as evenly as whole units allow (the first ones take the remainder). */
export function splitOverContainers(total: bigint, count: number): bigint[] {
  if (count <= 0) return [];
  const n = BigInt(count);
  const share = total / n;
  const rest = total % n;
  return Array.from({ length: count }, (_, i) => share + (BigInt(i) < rest ? 1n : 0n));
}

/** nanocores as metrics-server writes them: `150m`, `1`, `12345n`. */
export const formatCpu = (nanocores: bigint): string =>
  formatQuantity({ mantissa: nanocores, scale: -9, format: 'DecimalSI' });

/** bytes as metrics-server writes them: `64Mi`, `12Ki`, `1000`. */
export const formatMemory = (bytes: bigint): string =>
  formatQuantity({ mantissa: bytes, scale: 0, format: 'BinarySI' });
