import { describeTemplateUnit, describeUnit } from '../units/describeUnit.ts';
import { readUnitTakeovers } from '../units/unitTakeovers.ts';
import { variantOn } from '../documents/templateVariants.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import type { AutoscaledReplicas } from '../outputs/autoscaledTemplates.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { refKey, type ObjectRef } from '../api/kinds.ts';
import type { Problem } from '../errors/problem.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import type { ConfigModel } from '../api/model.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { renderHistoryAt } from '../outputs/lastGoodKarmada.ts';
import { sourceLimitsOf, sourceTooLargeToRead, sourceTreeEntries, type RenderLimits } from '../outputs/sourceLimits.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import { readBranchHead } from '../commits/readRef.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { buildPlan } from './buildPlan.ts';
import type { SourceState } from '../deliveries/checkPruneSafety.ts';
import type { Plan } from './types.ts';

export interface PlanRequest {
  base: string;
  head: string;
  clusterStatus?: ReadonlyMap<string, ObservedCluster>;
  /** FederatedHPA decisions (status branch) giving workloads their replicas; none when absent. */
  autoscaled?: AutoscaledReplicas;
  pruneThreshold?: number;
  /** The branch of the renders so far, where a broken policy or Cluster finds its last good definition. */
  outputRef?: string;
  /** --max-source-files, as the render this plan foresees has it; absent: the default. */
  limits?: RenderLimits;
  /** Told each step as it starts (rendering the base, the head, comparing), for a person waiting on a large fleet. */
  onPhase?: (text: string) => void;
}

/**
 * I/O edge of `flotilla plan`: renders base from scratch, then head with base's bindings as the previous
 * scheduling result (so steady-mode scheduling decides as it will after the merge), and hands both trees
 * to the pure buildPlan. Nothing is written.
 */
export async function readPlan(repo: GitRepo, req: PlanRequest): Promise<Plan> {
  // The FederatedHPA decisions a render would use now: a PR's plan shows the replicas they give, and says so.
  const autoscaled = req.autoscaled ?? new Map();
  // A head that breaks a Cluster or policy keeps, once merged, the definition the renders so far read (as the sync
  // will): the plan says so, instead of showing everything it placed removed.
  const rendered = await readBranchHead(repo, req.outputRef ?? `refs/heads/${RENDERED_BRANCH}`);
  const renders = rendered ? await renderHistoryAt(repo, rendered) : null;
  const history = renders ? { renders } : {};
  req.onPhase?.(`rendering the base (${req.base})`);
  const base = await renderSnapshot(
    repo,
    req.base,
    history,
    req.clusterStatus,
    undefined,
    undefined,
    autoscaled,
    req.limits,
  ).catch(unreadable);
  const baseFiles = new Map<string, string>();
  for (const [path, text] of base.output.edits) if (text !== null) baseFiles.set(path, text);
  req.onPhase?.(`rendering the head (${req.head}) over the base's results`);
  const head = await renderSnapshot(
    repo,
    req.head,
    { index: base.index, bindings: bindingsOf(baseFiles), files: baseFiles, ...history },
    req.clusterStatus,
    undefined,
    undefined,
    autoscaled,
    req.limits,
  ).catch(unreadable);
  const headFiles = new Map(baseFiles);
  for (const [path, text] of head.output.edits) {
    if (text === null) headFiles.delete(path);
    else headFiles.set(path, text);
  }
  req.onPhase?.('comparing what each cluster gets');
  const commit = await readCommitInfo(repo, head.sha);
  // A folder the change turns from a unit into an overlay's base: its objects' source moves, said in the plan.
  const takeovers = await readUnitTakeovers(repo, (await readCommitInfo(repo, base.sha)).tree, commit.tree, {
    maxEntries: sourceTreeEntries(sourceLimitsOf(req.limits)),
  }).catch((err: unknown) => {
    throw err instanceof TreeTooLargeError ? tooLargeToPlan(head.sha, err) : err;
  });
  return buildPlan({
    base: {
      sha: base.sha,
      files: baseFiles,
      index: base.index,
      units: unitsOf(base.model),
      clusterUnits: clusterUnitsOf(base.model),
      overridePolicies: base.model.overridePolicies,
    },
    head: {
      sha: head.sha,
      files: headFiles,
      index: head.index,
      units: unitsOf(head.model),
      clusterUnits: clusterUnitsOf(head.model),
      overridePolicies: head.model.overridePolicies,
      problems: [...head.model.problems, ...head.output.problems.map((p) => atBaseLine(p, base.model)), ...takeovers],
      explanations: head.output.explanations,
      released: head.output.released,
      trailers: parseTrailers(commit.message),
      source: sourceState(head.model),
    },
    ...(req.pruneThreshold !== undefined ? { pruneThreshold: req.pruneThreshold } : {}),
  });
}

/** A base or head too large to walk: a plan changes nothing, so it says it cannot read the commit, not what it keeps. */
function unreadable(err: unknown): never {
  throw err instanceof SourceTooLargeError ? tooLargeToPlan(err.source, err.walk) : err;
}

function tooLargeToPlan(source: string, walk: TreeTooLargeError): SourceTooLargeError {
  return new SourceTooLargeError(sourceTooLargeToRead(source, walk, 'flotilla plan', true), source, walk);
}

/** A deleted template's error points at the object in the base commit, which the head no longer has. */
function atBaseLine(problem: Problem, base: ConfigModel): Problem {
  const ref = problem.code === 'DELETION_PROTECTED' ? (problem.data?.ref as ObjectRef | undefined) : undefined;
  const source = ref && base.templates.get(refKey(ref))?.source;
  return source ? { ...problem, ...source } : problem;
}

/** refKey → the unit its template came from (Helm and Kustomize units' templates), or its file when it is a hook. */
function unitsOf(model: ConfigModel): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, t] of model.templates) {
    const source = describeTemplateUnit(model, t);
    if (source) out.set(key, source);
  }
  return out;
}

/** refKey → cluster → the unit whose variant the cluster gets, for the templates scoped units output. */
function clusterUnitsOf(model: ConfigModel): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, t] of model.templates) {
    if (!t.variants) continue;
    const byCluster = new Map<string, string>();
    for (const { object: cluster } of model.clusters.values()) {
      const v = variantOn(t, cluster);
      const unit = v && model.units?.get(v.unit);
      if (unit) byCluster.set(cluster.metadata.name, describeUnit(unit, v.origin?.file, v.originInArchive));
    }
    out.set(key, byCluster);
  }
  return out;
}

function bindingsOf(files: ReadonlyMap<string, string>): Map<string, ResourceBinding> {
  const out = new Map<string, ResourceBinding>();
  for (const [path, text] of files) {
    if (!path.startsWith('bindings/')) continue;
    const b = parseYamlValue(text) as ResourceBinding;
    const r = b.spec.resource;
    out.set(refKey({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }), b);
  }
  return out;
}

/** No object at all in the head commit is a broken read (wrong branch, emptied repo), not an intent. */
function sourceState(model: ConfigModel): SourceState {
  const objects =
    model.templates.size +
    model.propagationPolicies.length +
    model.overridePolicies.length +
    model.clusters.size +
    model.held.size;
  if (objects > 0) return 'ok';
  return model.unreadableFiles.size > 0 ? 'unreadable' : 'empty';
}
