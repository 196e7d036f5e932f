import { describeRef, parseRefKey } from '../api/kinds.ts';

/** `Deployment default/nginx` for a plan refKey; a bare output path (a file no index names) as it is. */
export function describePlanRef(key: string): string {
  if (key.startsWith('clusters/')) return key;
  return describeRef(parseRefKey(key));
}
