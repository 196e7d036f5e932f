import type { LabelSelector } from '../api/policy.ts';

/**
 * A label selector as the string an API server's `labelSelector` query takes (metav1.FormatLabelSelector: matchLabels
 * as `k=v`, then `k in (a,b)`, `k notin (a,b)`, `k`, `!k`), requirements ordered by key and values sorted as
 * Kubernetes' selector String() writes them; '' for an empty selector, which selects everything.
 */
export function formatLabelSelector(selector: LabelSelector): string {
  const parts: [string, string][] = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const req of selector.matchExpressions ?? []) {
    const values = [...(req.values ?? [])].sort().join(',');
    if (req.operator === 'In') parts.push([req.key, `${req.key} in (${values})`]);
    else if (req.operator === 'NotIn') parts.push([req.key, `${req.key} notin (${values})`]);
    else if (req.operator === 'Exists') parts.push([req.key, req.key]);
    else if (req.operator === 'DoesNotExist') parts.push([req.key, `!${req.key}`]);
  }
  return parts
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, text]) => text)
    .join(',');
}
