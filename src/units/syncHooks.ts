import type { FileObjects } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';

// Hooks as Argo CD's sync sorts them (gitops-engine pkg/sync/hook, hook/helm, ignore, sync_phase.go). Its own
// `argocd.argoproj.io/hook` (PreSync, Sync, PostSync, SyncFail, Skip) wins over Helm's `helm.sh/hook`; `Skip` alone
// means "never apply". A Helm hook is any `helm.sh/hook` but exactly `crd-install` (Helm 2's CRD hook, a plain CRD to
// Argo CD), mapped pre/post-install and pre/post-upgrade to PreSync/PostSync. A hook of no sync phase (SyncFail,
// delete, rollback, test) is ignored by a sync. Flotilla renders what a cluster runs and has no sync phases. Argo CD
// reads both annotations on every object of an Application, whatever made it (sync_context.go getSyncTasks): a plain
// manifest's hooks are sorted as a chart's are.

export const HOOK_ANNOTATION = 'helm.sh/hook';
export const ARGO_HOOK_ANNOTATION = 'argocd.argoproj.io/hook';
const DELETE_POLICY_ANNOTATIONS = ['helm.sh/hook-delete-policy', 'argocd.argoproj.io/hook-delete-policy'];
const ORDER_ANNOTATIONS = ['helm.sh/hook-weight', 'argocd.argoproj.io/sync-wave'];

/** The hook events Argo CD maps to a sync phase: Helm's name → Argo CD's phase. */
const HELM_PHASES: Record<string, string> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};
/** Argo CD's hook types (common.NewHookType); of them, the phases a sync that succeeds runs. */
const ARGO_TYPES = ['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip'];
const SYNC_PHASES = ['PreSync', 'Sync', 'PostSync'];

export type HookDisposition =
  /** No hook: an ordinary object. */
  | { kind: 'object' }
  /** A hook run on a sync that succeeds: output as an ordinary object (no phase, order or delete policy). */
  | { kind: 'applied'; hook: string; phases: string[] }
  /** A hook no successful sync runs (SyncFail, Skip, delete, rollback, test): not output. */
  | { kind: 'skipped'; hook: string };

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

/** What becomes of an object of a unit's output by its hook annotations (pure). */
export function hookDisposition(manifest: Record<string, unknown>): HookDisposition {
  const annotations = annotationsOf(manifest);
  const argo = annotations[ARGO_HOOK_ANNOTATION];
  const helm = annotations[HOOK_ANNOTATION];
  const argoTypes = csv(argo).filter((t) => ARGO_TYPES.includes(t));
  // hook.Types: Argo CD's own types, else Helm's mapped ones.
  const types =
    argoTypes.length > 0 ? argoTypes : csv(helm).flatMap((e) => (e in HELM_PHASES ? [HELM_PHASES[e]!] : []));
  const hook =
    argo !== undefined && (argoTypes.length > 0 || helm === undefined)
      ? `${ARGO_HOOK_ANNOTATION}: ${String(argo)}`
      : `${HOOK_ANNOTATION}: ${String(helm)}`;
  // hook.Skip: Skip alone is never applied.
  if (types.length === 1 && types[0] === 'Skip') return { kind: 'skipped', hook };
  const isHook = argo !== undefined || (helm !== undefined && helm !== 'crd-install');
  if (!isHook) return { kind: 'object' };
  const phases = [...new Set(types.filter((t) => SYNC_PHASES.includes(t)))];
  return phases.length > 0 ? { kind: 'applied', hook, phases } : { kind: 'skipped', hook };
}

/**
 * What plan and explain add to a hook's source line (pure): that it is applied as an ordinary object, what Argo CD
 * would do instead, and which of its hook annotations Flotilla does not apply. Undefined for an object no hook.
 */
export function describeHook(manifest: Record<string, unknown>): string | undefined {
  const d = hookDisposition(manifest);
  if (d.kind !== 'applied') return undefined;
  const annotations = annotationsOf(manifest);
  const ignored = [...DELETE_POLICY_ANNOTATIONS, ...ORDER_ANNOTATIONS]
    .filter((k) => annotations[k] !== undefined)
    .map((k) => `${k}: ${String(annotations[k])}`);
  return (
    `hook (${d.hook}), applied as an ordinary object and kept (Argo CD runs it as a ${d.phases.join(' and ')} hook on each sync; ` +
    `Flotilla has no sync phases)${ignored.length ? `; not applied: ${ignored.join(', ')}` : ''}`
  );
}

/**
 * The warning for a hook left out, at the line its template renders it: of a unit's output (`label` names the tool),
 * or of a plain file (no label).
 */
export function skippedHookProblem(
  at: { file: string; line: number; column: number },
  label: string | undefined,
  ref: { kind: string; name: string },
  hook: string,
): Problem {
  return {
    ...at,
    code: 'HOOK_NOT_RENDERED',
    severity: 'warning',
    message: `${label ? `${label} output: ` : ''}${ref.kind} ${ref.name} is a hook no successful sync runs (${hook}) and is not rendered: Argo CD skips it, runs delete hooks only when an Application is deleted and SyncFail hooks only when a sync fails, and Flotilla has none of these phases`,
    fix: label
      ? 'to run it with the release, annotate it helm.sh/hook: post-install,post-upgrade (it is then applied as an ordinary object); otherwise remove it'
      : 'to have it applied, annotate it argocd.argoproj.io/hook: PostSync (or drop the hook annotation); otherwise remove it',
  };
}

/**
 * A plain file's objects with its hooks sorted as Argo CD sorts them (pure): one no successful sync runs is left out
 * with a HOOK_NOT_RENDERED warning at its line; the others stay, as ordinary objects.
 */
export function withoutSkippedHooks(f: FileObjects): FileObjects {
  let problems: Problem[] | undefined;
  const templates = f.templates.filter((t) => {
    const hook = hookDisposition(t.manifest);
    if (hook.kind !== 'skipped') return true;
    (problems ??= [...f.problems]).push(skippedHookProblem(t.source, undefined, t.ref, hook.hook));
    return false;
  });
  return problems ? { ...f, templates, problems } : f;
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
