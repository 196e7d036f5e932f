/** labels.FormatLabels: a plain label map as `k=v` pairs sorted by key, `<none>` when it holds none. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries((labels && typeof labels === 'object' ? labels : {}) as Record<string, unknown>);
  return (
    entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',') || '<none>'
  );
}
