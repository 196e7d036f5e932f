import type { Problem } from '../errors/problem.ts';

// Helm hooks as Argo CD treats them (gitops-engine pkg/sync/hook, hook/helm, ignore): an object annotated
// `helm.sh/hook` is a hook unless the value is exactly `crd-install` (Helm 2's CRD hook, a plain CRD to Argo CD);
// pre/post-install and pre/post-upgrade hooks run as PreSync/PostSync hooks on every sync; a hook with none of those
// (delete, rollback, test) is ignored by a sync. Flotilla renders what a cluster runs and has no sync phases.

export const HOOK_ANNOTATION = 'helm.sh/hook';
const DELETE_POLICY_ANNOTATION = 'helm.sh/hook-delete-policy';
const WEIGHT_ANNOTATION = 'helm.sh/hook-weight';

/** The hook events Argo CD maps to a sync phase: Helm's name → Argo CD's phase. */
const SYNC_EVENTS: Record<string, string> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};

export type HookDisposition =
  /** No hook: an ordinary object. */
  | { kind: 'object' }
  /** An install or upgrade hook: output as an ordinary object (no phase, weight or delete policy). */
  | { kind: 'applied'; events: string[]; phases: string[] }
  /** A delete, rollback or test hook: no part of what a sync applies, not output. */
  | { kind: 'skipped'; events: string[] };

function annotationsOf(manifest: Record<string, unknown>): Record<string, unknown> {
  const meta = manifest.metadata as { annotations?: unknown } | undefined;
  const a = meta?.annotations;
  return a && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : {};
}

/** Comma-separated values as gitops-engine's GetAnnotationCSVs reads them (split, trimmed, empties dropped). */
function csv(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];
}

/** What becomes of an object of a unit's output by its `helm.sh/hook` annotation (pure). */
export function hookDisposition(manifest: Record<string, unknown>): HookDisposition {
  const value = annotationsOf(manifest)[HOOK_ANNOTATION];
  if (value === undefined || value === 'crd-install') return { kind: 'object' };
  const events = csv(value);
  const phases = [...new Set(events.filter((e) => e in SYNC_EVENTS).map((e) => SYNC_EVENTS[e]!))];
  return phases.length > 0 ? { kind: 'applied', events, phases } : { kind: 'skipped', events };
}

/**
 * What plan and explain add to a hook's source line (pure): that it is applied as an ordinary object, what Argo CD
 * would do instead, and which of its hook annotations Flotilla does not apply. Undefined for an object no hook.
 */
export function describeHook(manifest: Record<string, unknown>): string | undefined {
  const d = hookDisposition(manifest);
  if (d.kind !== 'applied') return undefined;
  const annotations = annotationsOf(manifest);
  const ignored = [DELETE_POLICY_ANNOTATION, WEIGHT_ANNOTATION]
    .filter((k) => annotations[k] !== undefined)
    .map((k) => `${k}: ${String(annotations[k])}`);
  return (
    `Helm ${d.events.join(',')} hook, applied as an ordinary object and kept (Argo CD runs it as a ${d.phases.join(' and ')} hook; ` +
    `Flotilla has no sync phases)${ignored.length ? `; not applied: ${ignored.join(', ')}` : ''}`
  );
}

/** The warning for a hook left out of a unit's output, at the line its template renders it. */
export function skippedHookProblem(
  at: { file: string; line: number; column: number },
  label: string,
  ref: { kind: string; name: string },
  events: readonly string[],
): Problem {
  const which = events.join(',');
  return {
    ...at,
    code: 'HOOK_NOT_RENDERED',
    severity: 'warning',
    message: `${label} output: ${ref.kind} ${ref.name} is a Helm ${which} hook and is not rendered: Argo CD runs delete hooks only when an Application is deleted and ignores rollback and test hooks on a sync, and Flotilla has no such phase`,
    fix: `to run it with the release, annotate it helm.sh/hook: post-install,post-upgrade (it is then applied as an ordinary object); otherwise remove it`,
  };
}

/**
 * Warnings for the objects helm itself left out of `helm template` (pure): Helm 3 skips a hook of an event it does not
 * know (`crd-install` of Helm 2, a misspelt event) and says so only on stderr. Test hooks are left out on purpose.
 */
export function helmSkippedHooks(marker: string, stderr: string): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const m of stderr.matchAll(/info: skipping unknown hook: "([^"\n]*)"/g)) {
    const value = m[1]!;
    if (seen.has(value) || csv(value.toLowerCase()).every((e) => e.startsWith('test'))) continue;
    seen.add(value);
    out.push({
      file: marker,
      line: 1,
      column: 1,
      code: 'HOOK_NOT_RENDERED',
      severity: 'warning',
      message: `helm template left out the objects annotated helm.sh/hook: "${value}": Helm 3 knows no such hook event, so neither Argo CD nor Flotilla renders them`,
      fix: value.includes('crd-install')
        ? "move the CustomResourceDefinition into the chart's crds/ folder (rendered unless includeCRDs: false) and drop the annotation"
        : 'use a Helm 3 hook event (pre-install, post-install, pre-upgrade, post-upgrade…) or drop the annotation',
    });
  }
  return out;
}
