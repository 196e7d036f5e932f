const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * apimachinery's CompareKubeAwareVersionStrings as a sort: GA versions first (higher major first), then beta, then
 * alpha (each by major, then minor, higher first), then anything else by name.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = KUBE_VERSION.exec(v);
    if (!m) return undefined;
    return [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
}
