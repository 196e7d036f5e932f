import { isSecret } from '../interpreters/isSecret.ts';

type Obj = Record<string, unknown>;

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * A Secret as get and describe may show it: its keys, each value replaced by its size, as `kubectl describe secret`
 * prints them. The config repo may be readable by more people than the members' Secrets are, and a terminal or CI log
 * is readable by more still. Other objects are returned unchanged.
 */
export function redactSecret<T>(obj: T): T {
  if (!obj || typeof obj !== 'object' || !isSecret(obj as Obj)) return obj;
  const out: Obj = { ...(obj as Obj) };
  for (const field of ['data', 'stringData'] as const) {
    const values = out[field];
    if (values && typeof values === 'object')
      out[field] = Object.fromEntries(
        Object.entries(values as Obj).map(([k, v]) => [k, `<redacted: ${secretValueSize(field, v)} bytes>`]),
      );
  }
  // kubectl apply leaves the whole object, values included, in this annotation.
  const meta = out.metadata as { annotations?: Record<string, string> } | undefined;
  if (meta?.annotations?.[LAST_APPLIED] !== undefined)
    out.metadata = { ...meta, annotations: { ...meta.annotations, [LAST_APPLIED]: '<redacted>' } };
  return out as T;
}

/** `key: size` of every data and stringData key, sorted: what describe prints under Data. */
export function secretKeySizes(secret: Obj): [string, number][] {
  const sizes = new Map<string, number>();
  for (const field of ['data', 'stringData'] as const) {
    const values = secret[field];
    if (values && typeof values === 'object')
      for (const [k, v] of Object.entries(values as Obj)) sizes.set(k, secretValueSize(field, v));
  }
  return [...sizes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** data holds base64 of the bytes, stringData the text itself; the size is of the bytes the pod would see. */
function secretValueSize(field: 'data' | 'stringData', v: unknown): number {
  const text = typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
  return field === 'data' ? Buffer.from(text, 'base64').length : Buffer.byteLength(text, 'utf8');
}
