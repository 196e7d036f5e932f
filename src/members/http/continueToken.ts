import { badRequest } from '../ApiError.ts';

// A list page's `continue` token, shaped like the API server's (k8s.io/apiserver pkg/storage/continue.go):
// unpadded base64url of {"v":"meta.k8s.io/v1","rv":N,"start":KEY}. The start key is the `namespace/name`
// of the first object the next page returns, so objects created or deleted between pages do not shift it.

const VERSION = 'meta.k8s.io/v1';

export interface ContinuePoint {
  resourceVersion: number;
  startKey: string;
}

export function encodeContinue(point: ContinuePoint): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv: point.resourceVersion, start: point.startKey })).toString(
    'base64url',
  );
}

/** The token's start, or the 400 the API server answers a token it did not make. */
export function decodeContinue(token: string): ContinuePoint {
  const invalid = (detail: string) => badRequest(`invalid continue token: continue key is not valid${detail}`);
  const bad = /[^A-Za-z0-9_-]/.exec(token);
  if (bad) throw invalid(`: illegal base64 data at input byte ${bad.index}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (error) {
    throw invalid(`: ${(error as Error).message}`);
  }
  const { v, rv, start } = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== VERSION)
    throw invalid(`: server does not recognize this encoded version ${typeof v === 'string' ? v : ''}`);
  if (typeof rv !== 'number' || rv === 0)
    throw invalid(': incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof start !== 'string' || start === '') throw invalid(': encoded start key empty (version meta.k8s.io/v1)');
  return { resourceVersion: rv, startKey: start };
}
