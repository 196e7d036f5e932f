import { canonicalQuantity } from '../../quantities/canonicalQuantity.ts';
import type { KubeObject } from '../types.ts';

// The TARGETS cell of `kubectl get hpa` (printers.go formatHPAMetrics for autoscaling/v2): one entry per
// metric, current over target, matched to status.currentMetrics by position; two entries at most, then
// "+ N more...".

type Json = any;

const quantity = (value: unknown): string => String(canonicalQuantity(value, false) ?? '');

function formatMetric(spec: Json, status: Json): string {
  const unknown = '<unknown>';
  switch (spec?.type) {
    case 'External': {
      const target = spec.external?.target ?? {};
      if (target.averageValue != null)
        return `${status?.external?.current?.averageValue != null ? quantity(status.external.current.averageValue) : unknown}/${quantity(target.averageValue)} (avg)`;
      return `${status?.external ? quantity(status.external.current?.value) : unknown}/${quantity(target.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? quantity(status.pods.current?.averageValue) : unknown}/${quantity(spec.pods?.target?.averageValue)}`;
    case 'Object': {
      const target = spec.object?.target ?? {};
      if (target.averageValue != null)
        return `${status?.object?.current?.averageValue != null ? quantity(status.object.current.averageValue) : unknown}/${quantity(target.averageValue)} (avg)`;
      return `${status?.object ? quantity(status.object.current?.value) : unknown}/${quantity(target.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const current = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const target = source?.target ?? {};
      if (target.averageValue != null)
        return `${source?.name}: ${current ? quantity(current.current?.averageValue) : unknown}/${quantity(target.averageValue)}`;
      const now = current?.current?.averageUtilization != null ? `${current.current.averageUtilization}%` : unknown;
      return `${source?.name}: ${now}/${target.averageUtilization != null ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

export function hpaTargets(o: KubeObject): string {
  const specs: Json[] = o.spec?.metrics ?? [];
  if (specs.length === 0) return '<none>';
  const statuses: Json[] = o.status?.currentMetrics ?? [];
  const list = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  if (list.length > 2) return `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`;
  return list.join(', ');
}
