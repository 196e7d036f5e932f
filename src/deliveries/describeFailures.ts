import type { ApplyResult } from './types.ts';

/** Each object an apply failed or conflicted on, with the member's answer: `path: failed: HTTP 422 …`. */
export function describeFailures(results: readonly ApplyResult[]): string[] {
  return results
    .filter((r) => r.action === 'failed' || r.action === 'conflict')
    .map((r) => `${r.path ?? `${r.ref.kind}/${r.ref.name}`}: ${r.action}: ${r.message}`);
}
