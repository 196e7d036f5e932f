import { canonicalQuantity } from '../quantities/canonicalQuantity.ts';

// The TARGETS cell of `kubectl get hpa` (printers.go formatHPAMetrics for autoscaling/v2): one entry per
// metric, current over target, matched to status.currentMetrics by position; two entries at most, then
// "+ N more...". Shared by `flotilla get` and the member emulator's Tables.

type Values = { averageValue?: unknown; value?: unknown; averageUtilization?: unknown };
type Source = { name?: unknown; target?: Values };
type MetricSpec = { type?: unknown } & Partial<Record<Kind, Source>>;
type MetricStatus = Partial<Record<Kind, { current?: Values }>>;
type Kind = 'external' | 'pods' | 'object' | 'resource' | 'containerResource';

const quantity = (value: unknown): string => String(canonicalQuantity(value, false) ?? '');
const UNKNOWN = '<unknown>';

/** A value target, or an average one marked `(avg)` (External and Object metrics). */
function valueOrAverage(spec: MetricSpec, status: MetricStatus | undefined, kind: 'external' | 'object'): string {
  const target = spec[kind]?.target ?? {};
  const current = status?.[kind];
  if (target.averageValue != null)
    return `${current?.current?.averageValue != null ? quantity(current.current.averageValue) : UNKNOWN}/${quantity(target.averageValue)} (avg)`;
  return `${current ? quantity(current.current?.value) : UNKNOWN}/${quantity(target.value)}`;
}

function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec?.type) {
    case 'External':
      return valueOrAverage(spec, status, 'external');
    case 'Pods':
      return `${status?.pods ? quantity(status.pods.current?.averageValue) : UNKNOWN}/${quantity(spec.pods?.target?.averageValue)}`;
    case 'Object':
      return valueOrAverage(spec, status, 'object');
    case 'Resource':
    case 'ContainerResource': {
      const kind = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const source = spec[kind];
      const current = status?.[kind];
      const target = source?.target ?? {};
      const name = String(source?.name);
      if (target.averageValue != null)
        return `${name}: ${current ? quantity(current.current?.averageValue) : UNKNOWN}/${quantity(target.averageValue)}`;
      const now = current?.current?.averageUtilization != null ? `${current.current.averageUtilization}%` : UNKNOWN;
      return `${name}: ${now}/${target.averageUtilization != null ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

export function hpaTargets(metrics: unknown, currentMetrics: unknown): string {
  const specs: MetricSpec[] = Array.isArray(metrics) ? metrics : [];
  if (specs.length === 0) return '<none>';
  const statuses: MetricStatus[] = Array.isArray(currentMetrics) ? currentMetrics : [];
  const list = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  if (list.length > 2) return `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`;
  return list.join(', ');
}
