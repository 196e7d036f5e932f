import type { KubeObject, PrintColumn, ResourceType } from '../types.ts';

// autoscaling/v1 HorizontalPodAutoscaler served beside autoscaling/v2 (what `kubectl autoscale` posts), as the API
// server converts them (pkg/apis/autoscaling/v1/conversion.go): objects are stored in the v2 shape, and v1 has one
// metric, targetCPUUtilizationPercentage, for the Resource cpu Utilization metric, and
// status.currentCPUUtilizationPercentage for its current value. The API server keeps v2-only fields through v1 in
// annotations; here a v1 write keeps them from the stored object instead (its other metrics and its behavior).

type Json = any;

export function isHpaV1(rt: Pick<ResourceType, 'group' | 'version' | 'kind'>): boolean {
  return rt.group === 'autoscaling' && rt.version === 'v1' && rt.kind === 'HorizontalPodAutoscaler';
}

const isCpuUtilization = (m: Json) =>
  m?.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.type === 'Utilization';

/** The stored (v2) object as autoscaling/v1 shows it. */
export function hpaToV1(o: KubeObject): KubeObject {
  const spec: Json = o.spec ?? {};
  const status: Json = o.status;
  const cpu = (spec.metrics ?? []).find(isCpuUtilization)?.resource?.target?.averageUtilization;
  const current = (status?.currentMetrics ?? []).find((m: Json) => m?.type === 'Resource' && m.resource?.name === 'cpu')
    ?.resource?.current?.averageUtilization;
  const out: KubeObject = {
    ...o,
    apiVersion: 'autoscaling/v1',
    spec: {
      scaleTargetRef: spec.scaleTargetRef,
      ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}),
      maxReplicas: spec.maxReplicas,
      ...(typeof cpu === 'number' ? { targetCPUUtilizationPercentage: cpu } : {}),
    },
  };
  if (status)
    out.status = {
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
      ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      ...(typeof current === 'number' ? { currentCPUUtilizationPercentage: current } : {}),
    };
  return out;
}

/** A v1 object (a create, or an update over `stored`) in the stored v2 shape. */
export function hpaFromV1(o: KubeObject, stored?: KubeObject): KubeObject {
  const spec: Json = o.spec ?? {};
  const before: Json = stored?.spec ?? {};
  const others = (before.metrics ?? []).filter((m: Json) => !isCpuUtilization(m));
  const cpu =
    typeof spec.targetCPUUtilizationPercentage === 'number'
      ? [
          {
            type: 'Resource',
            resource: {
              name: 'cpu',
              target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
            },
          },
        ]
      : [];
  const metrics = [...cpu, ...others];
  const out: KubeObject = {
    ...o,
    apiVersion: 'autoscaling/v2',
    spec: {
      scaleTargetRef: spec.scaleTargetRef,
      ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}),
      maxReplicas: spec.maxReplicas,
      ...(metrics.length ? { metrics } : {}),
      ...(before.behavior !== undefined ? { behavior: before.behavior } : {}),
    },
  };
  const status: Json = o.status;
  if (status) {
    // Status written through v1 keeps what v1 cannot say (conditions, metrics other than CPU) from the stored one.
    const kept: Json = stored?.status ?? {};
    const otherCurrent = (kept.currentMetrics ?? []).filter(
      (m: Json) => !(m?.type === 'Resource' && m.resource?.name === 'cpu'),
    );
    const cpuCurrent =
      typeof status.currentCPUUtilizationPercentage === 'number'
        ? [
            {
              type: 'Resource',
              resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
            },
          ]
        : [];
    const currentMetrics = [...cpuCurrent, ...otherCurrent];
    out.status = {
      ...Object.fromEntries(Object.entries(kept).filter(([k]) => k !== 'currentReplicas')),
      ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
      ...(status.lastScaleTime !== undefined ? { lastScaleTime: status.lastScaleTime } : {}),
      // v2 tags currentReplicas omitempty; v1 always writes it.
      ...(status.currentReplicas ? { currentReplicas: status.currentReplicas } : {}),
      desiredReplicas: status.desiredReplicas ?? 0,
      ...(currentMetrics.length ? { currentMetrics } : {}),
    };
    if (!currentMetrics.length) delete out.status.currentMetrics;
  } else delete out.status;
  return out;
}

/** The object as the version `rt` serves it. */
export function servedAs(o: KubeObject, rt: ResourceType): KubeObject {
  return isHpaV1(rt) ? hpaToV1(o) : o;
}

/** The v2 columns reading a v1 object: the server prints an HPA alike whichever version is asked for. */
export function hpaV1Columns(v2: readonly PrintColumn[]): PrintColumn[] {
  return v2.map((c) => ({ ...c, cell: (o, now) => c.cell(hpaFromV1(o), now) }));
}
