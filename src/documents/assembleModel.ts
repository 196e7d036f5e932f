import type { Cluster } from '../api/cluster.ts';
import { CLUSTER_SCOPED_KINDS, describeRef, refKey, type ObjectRef } from '../api/kinds.ts';
import { eventLoopTurns, type EventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { compareProblems, type SourceSpan } from '../errors/problem.ts';
import { outputPathKeys } from '../branches/rendered/outputPaths.ts';
import { karmadaRef } from './karmadaRef.ts';
import { declaredClusterScopedKinds, kindKey } from './clusterScopedKinds.ts';
import type { ConfigModel, FileObjects, Located, Template, TemplateVariant } from '../api/model.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { checkCustomResource, crdSchemasOf } from './checkCustomResources.ts';

export interface AssembleOptions {
  /**
   * The last good definition of each policy or Cluster defined twice (outputs/lastGoodKarmada.ts), with the model
   * list it goes in: dropping it would unschedule, and so delete, everything it placed. Without one both copies are
   * dropped.
   */
  kept?: ReadonlyMap<string, { list: KeptList; located: Located<Karmada> }>;
  /**
   * Kinds CRDs of files not read declare cluster-scoped (an incremental sync knows them from the output index), besides
   * those of the files given.
   */
  clusterScopedKinds?: Iterable<string>;
}

/** The model lists a Karmada object defined twice can keep its last good definition in. */
type KeptList =
  | 'propagationPolicies'
  | 'overridePolicies'
  | 'clusterTaintPolicies'
  | 'clusters'
  | 'interpreterCustomizations';
type Karmada = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

/**
 * Joins the files of one commit into the model every later stage reads: resolves each template's
 * scope (built-in list, plus CRDs defined in the same repo), and turns any object defined twice into
 * an error naming both places. A duplicated object is held: neither copy replaces its last good output.
 */
export async function assembleModel(files: Iterable<FileObjects>, opts: AssembleOptions = {}): Promise<ConfigModel> {
  const all = [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const clusterScoped = clusterScopedKinds(all, opts.clusterScopedKinds ?? []);
  const crdSchemas = crdSchemasOf(all);
  const model: ConfigModel = {
    templates: new Map(),
    propagationPolicies: [],
    overridePolicies: [],
    clusterTaintPolicies: [],
    clusters: new Map(),
    rebalancers: [],
    interpreterCustomizations: [],
    held: new Set(),
    unreadableFiles: new Set(),
    problems: [],
  };
  const seen = new Map<string, { source: SourceSpan; unit: boolean; scoped: boolean; origin?: SourceSpan }>();
  const duplicated = new Set<string>();
  // Identity → what each scoped unit outputs for it: variants of one template when their scopes are disjoint.
  const variants = new Map<string, TemplateVariant[]>();
  const claim = (ref: ObjectRef, source: SourceSpan, unit = false, scoped = false, origin?: SourceSpan): boolean => {
    const key = refKey(ref);
    const was = seen.get(key);
    if (!was) {
      seen.set(key, { source, unit, scoped, ...(origin ? { origin } : {}) });
      return true;
    }
    // Two scoped units: variants, checked once the commit's clusters are known (scopeVariants). One unit outputting
    // an object twice is a duplicate as any.
    if (was.scoped && scoped && was.source.file !== source.file) return false;
    // One unit outputting an object twice: its marker names both, the templates its tool named tell them apart.
    if (unit && was.unit && was.source.file === source.file && origin && was.origin) {
      duplicated.add(key);
      model.problems.push({
        ...origin,
        code: 'DUPLICATE_OBJECT',
        severity: 'error',
        message: `${describeRef(ref)} (${ref.apiVersion}) is defined twice: here and at ${was.origin.file}:${was.origin.line}`,
        fix: `remove one of the two from the chart's templates or the kustomization's resources (${was.origin.file}:${was.origin.line} or ${origin.file}:${origin.line}), or give them different names`,
        data: { first: was.source, second: source },
      });
      return false;
    }
    const first = was.source;
    duplicated.add(key);
    model.problems.push({
      ...source,
      code: 'DUPLICATE_OBJECT',
      severity: 'error',
      message: `${describeRef(ref)} (${ref.apiVersion}) is defined twice: here and at ${first.file}:${first.line}`,
      // A Helm or Kustomize unit's object has no definition of its own to delete: overlays of one base output the
      // same objects unless they are told apart.
      fix:
        scoped !== was.scoped
          ? `give both a clusterAffinity in their flotilla-unit.yaml (the variants of one object come from scoped units only), or delete one of the two (${first.file} or ${source.file})`
          : unit || was.unit
            ? `tell the two apart: give each Helm or Kustomize unit its own namespace (namespace: in its kustomization or flotilla-unit.yaml) or namePrefix, or scope each to its clusters (clusterAffinity in flotilla-unit.yaml), or keep one (${first.file} or ${source.file}) and vary it per cluster with an OverridePolicy; a folder not meant to render on its own goes in .flotillaignore`
            : `delete one of the two definitions (${first.file}:${first.line} or ${source.file}:${source.line})`,
      data: { first, second: source },
    });
    return false;
  };

  // Every file of the repository on a cold render (59,000 at 50,000 templates): the event loop gets a turn now and then.
  const turns = eventLoopTurns();
  for (const f of all) {
    if (turns.due()) await turns.give();
    model.problems.push(...f.problems);
    if (f.unreadable) model.unreadableFiles.add(f.file);
    if (f.unit) (model.units ??= new Map()).set(f.file, f.unit);
    for (const ref of f.broken) model.held.add(refKey(ref));
    const scope = f.unit?.scope;
    for (const read of f.templates) {
      const scoped = clusterScoped.has(kindKey(read.ref));
      const ref: ObjectRef = { ...read.ref, namespace: scoped ? '' : (read.ref.namespace ?? 'default') };
      const schema = crdSchemas.get(kindKey(read.ref));
      const checked = schema && checkCustomResource(read, schema);
      if (checked && checked.problems.length > 0) {
        // Refused by Karmada's API server: what it rendered before is kept, as for any invalid template.
        model.problems.push(...checked.problems);
        model.held.add(refKey(ref));
        continue;
      }
      const t = checked ? { ...read, manifest: checked.manifest } : read;
      const metadata = (t.manifest.metadata ?? {}) as { labels?: Record<string, string> };
      const labels = metadata.labels ?? {};
      const variant: TemplateVariant | undefined = scope && {
        unit: f.file,
        scope,
        labels,
        manifest: t.manifest,
        source: t.source,
        ...(t.fieldSources ? { fieldSources: t.fieldSources } : {}),
        ...(t.origin ? { origin: t.origin } : {}),
        ...(t.originInArchive ? { originInArchive: t.originInArchive } : {}),
        ...(t.originArchiveLine ? { originArchiveLine: t.originArchiveLine } : {}),
      };
      const key = refKey(ref);
      const first = claim(ref, t.source, f.unit !== undefined, scope !== undefined, t.origin);
      if (variant && (first || variants.has(key))) variants.set(key, [...(variants.get(key) ?? []), variant]);
      if (!first) continue;
      const template: Template = {
        ref,
        labels,
        manifest: t.manifest,
        source: t.source,
        ...(t.fieldSources ? { fieldSources: t.fieldSources } : {}),
        ...(t.origin ? { origin: t.origin } : {}),
        ...(t.originInArchive ? { originInArchive: t.originInArchive } : {}),
        ...(t.originArchiveLine ? { originArchiveLine: t.originArchiveLine } : {}),
      };
      model.templates.set(key, template);
    }
    const karmada = <T extends { metadata: { name: string; namespace?: string }; apiVersion: string; kind: string }>(
      list: Located<T>[],
      into: Located<T>[],
    ) => {
      for (const item of list) {
        if (claim(karmadaRef(item.object), item.source)) into.push(item);
      }
    };
    karmada(f.propagationPolicies, model.propagationPolicies);
    karmada(f.overridePolicies, model.overridePolicies);
    karmada(f.rebalancers, model.rebalancers);
    karmada(f.interpreterCustomizations, model.interpreterCustomizations);
    karmada(f.clusterTaintPolicies, model.clusterTaintPolicies);
    const clusters: Located<Cluster>[] = [];
    karmada(f.clusters, clusters);
    for (const c of clusters) model.clusters.set(c.object.metadata.name, c);
  }

  scopeVariants(model, variants, duplicated);
  await claimOutputPaths(model, duplicated, turns);

  // The first definition was kept while scanning; once it is known to be duplicated, drop it too.
  for (const key of duplicated) {
    model.held.add(key);
    model.templates.delete(key);
    model.propagationPolicies = model.propagationPolicies.filter((p) => refKey(karmadaRef(p.object)) !== key);
    model.overridePolicies = model.overridePolicies.filter((p) => refKey(karmadaRef(p.object)) !== key);
    model.rebalancers = model.rebalancers.filter((p) => refKey(karmadaRef(p.object)) !== key);
    model.interpreterCustomizations = model.interpreterCustomizations.filter(
      (p) => refKey(karmadaRef(p.object)) !== key,
    );
    model.clusterTaintPolicies = model.clusterTaintPolicies.filter((p) => refKey(karmadaRef(p.object)) !== key);
    for (const [name, c] of model.clusters) if (refKey(karmadaRef(c.object)) === key) model.clusters.delete(name);
    const kept = opts.kept?.get(key);
    if (!kept) continue;
    if (kept.list === 'clusters') {
      const cluster = kept.located as Located<Cluster>;
      model.clusters.set(cluster.object.metadata.name, cluster);
    } else (model[kept.list] as Located<Karmada>[]).push(kept.located);
  }
  model.problems.sort(compareProblems);
  return model;
}

/**
 * Gives each template scoped units output its variants, when their scopes select disjoint sets of the commit's
 * registered clusters and they carry the same labels (policies select a template by its labels, and one template has
 * one policy). A cluster two scopes select, or labels that differ, is DUPLICATE_OBJECT at the later unit's object,
 * naming both units: the object is held, as any object defined twice.
 */
function scopeVariants(
  model: ConfigModel,
  variants: ReadonlyMap<string, TemplateVariant[]>,
  duplicated: Set<string>,
): void {
  const clusters = [...model.clusters.values()].map((c) => c.object);
  const optionsFile = (marker: string) => model.units?.get(marker)?.optionsFile ?? unitFolder(marker);
  for (const [key, list] of variants) {
    const template = model.templates.get(key);
    if (!template || duplicated.has(key)) continue;
    model.templates.set(key, { ...template, variants: list });
    for (let j = 1; j < list.length; j++) {
      const later = list[j]!;
      for (const earlier of list.slice(0, j)) {
        const both = clusters.find(
          (c) => matchClusterAffinity(earlier.scope, c) && matchClusterAffinity(later.scope, c),
        );
        const units = `${unitFolder(earlier.unit)} and ${unitFolder(later.unit)}`;
        const problem = (message: string, fix: string) => {
          duplicated.add(key);
          model.problems.push({
            ...later.source,
            code: 'DUPLICATE_OBJECT',
            severity: 'error',
            message,
            fix,
            data: { first: earlier.source, second: later.source },
          });
        };
        if (both)
          problem(
            `${describeRef(template.ref)} (${template.ref.apiVersion}) is output by ${units}, whose clusterAffinity both select cluster ${both.metadata.name}: a cluster gets one variant`,
            `narrow the clusterAffinity of one of them (${optionsFile(earlier.unit)} or ${optionsFile(later.unit)}) so that ${both.metadata.name} is selected by one only`,
          );
        else if (!sameLabels(earlier.labels, later.labels))
          problem(
            `${describeRef(template.ref)} (${template.ref.apiVersion}) is output by ${units} with different labels; policies select an object by its labels, so its variants carry the same ones`,
            `give the object the same labels in both (set them in the base, not in one overlay), or give each variant its own name or namespace`,
          );
        else continue;
        break;
      }
      if (duplicated.has(key)) break;
    }
  }
}

function unitFolder(marker: string): string {
  return marker.slice(0, marker.lastIndexOf('/'));
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/**
 * Two different templates whose output would share a file (works/outputPaths.ts outputPathKeys) are an error at
 * both, and both are held: neither may replace the other's manifest or binding, and removing one must never take the
 * other's output, and so the object on the members, with it.
 */
async function claimOutputPaths(model: ConfigModel, duplicated: Set<string>, turns: EventLoopTurns): Promise<void> {
  const owners = new Map<string, Template>();
  const reported = new Set<string>();
  for (const [key, t] of model.templates) {
    if (turns.due()) await turns.give();
    if (duplicated.has(key)) continue;
    for (const path of outputPathKeys(t.ref)) {
      const other = owners.get(path);
      if (!other) {
        owners.set(path, t);
        continue;
      }
      duplicated.add(key);
      duplicated.add(refKey(other.ref));
      model.collided ??= new Map();
      model.collided.set(key, t).set(refKey(other.ref), other);
      const pair = `${refKey(other.ref)} ${key}`;
      if (reported.has(pair)) continue;
      reported.add(pair);
      const file = path.slice(path.indexOf(':') + 1);
      for (const [here, there] of [
        [t, other],
        [other, t],
      ] as const) {
        model.problems.push({
          ...here.source,
          code: 'PATH_COLLISION',
          severity: 'error',
          message: `${describeRef(here.ref)} (${here.ref.apiVersion}) and ${describeRef(there.ref)} (${there.ref.apiVersion}) at ${there.source.file}:${there.source.line} would both be written to ${path.startsWith('manifest:') ? `clusters/<cluster>/${file}` : file}; both keep their last output`,
          fix: 'rename one of the two objects (or drop one): Flotilla cannot tell their output apart',
          data: { first: other.source, second: t.source },
        });
      }
    }
  }
}

/** Built-in cluster-scoped kinds plus every CRD in the repo that declares `scope: Cluster`. */
function clusterScopedKinds(files: readonly FileObjects[], known: Iterable<string>): Set<string> {
  const kinds = new Set([...CLUSTER_SCOPED_KINDS, ...known]);
  for (const f of files) for (const kind of declaredClusterScopedKinds(f)) kinds.add(kind);
  return kinds;
}
