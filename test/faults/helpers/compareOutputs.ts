// Expected against actual output of a fault scenario, both read back from the rendered branch (test/helpers/fleet.ts
// builds the repo), so "lost" counts real files.
import type { Problem } from '../../../src/errors/problem.ts';
import type { SyncResult } from '../../../src/outputs/syncRepo.ts';

/** Rendered manifests only (clusters/…), the part members receive. */
export function manifests(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...files].filter(([p]) => p.startsWith('clusters/')));
}

/** Expected paths absent from the actual output. */
export function missing(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): string[] {
  return [...expected.keys()].filter((p) => !actual.has(p));
}

/** Expected paths present with other bytes. */
export function changed(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): string[] {
  return [...expected].filter(([p, oid]) => actual.has(p) && actual.get(p) !== oid).map(([p]) => p);
}

export function errorsOf(sync: SyncResult): Problem[] {
  return sync.reports.flatMap((r) => r.problems).filter((p) => p.severity === 'error');
}
