const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes resource quantity ('500m', '2', '128Mi', '1G', '1e3') as a plain number of base units. */
export function parseQuantity(text: string | number | undefined): number {
  if (text === undefined) return 0;
  if (typeof text === 'number') return text;
  const m = /^([+-]?[0-9.]+)(e[+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(text.trim());
  if (!m) return 0;
  const value = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix.startsWith('e')) return value * 10 ** Number(suffix.slice(1));
  return value * (BINARY[suffix] ?? DECIMAL[suffix] ?? 1);
}
