import { describeTemplateUnit, describeUnit } from '../units/describeUnit.ts';
import { readUnitTakeovers } from '../units/unitTakeovers.ts';
import { variantOn } from '../documents/templateVariants.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import type { AutoscaledReplicas } from '../outputs/autoscaledTemplates.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { parseRefKey, refKey, writtenAs, type ObjectRef } from '../api/kinds.ts';
import type { Problem } from '../errors/problem.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
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
import { draftRender, type RenderDraft } from '../outputs/renderRevision.ts';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { karmadaFilePaths, loadKarmadaObjects } from '../outputs/loadSource.ts';
import { clusterOfPath } from '../branches/rendered/outputPaths.ts';
import type { IndexEntry, OutputIndex } from '../branches/rendered/outputIndex.ts';
import { findUnknownClusterNames } from '../bindings/findUnknownClusterNames.ts';
import { findUncreatedNamespaces } from '../bindings/findUncreatedNamespaces.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { isUnitFile } from '../units/detectUnits.ts';
import { findIdlePolicies, policySelects } from '../bindings/findIdlePolicies.ts';
import { policyKey } from '../bindings/matchPolicy.ts';
import type { PropagationPolicy } from '../api/policy.ts';
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
  /**
   * Start from the rendered branch when its last render is of `base`, as the sync after the merge will: only what the
   * change reaches renders, with the status branch's cluster state and FederatedHPA decisions (clusterStatus and
   * autoscaled are then not used). Both commits render whole instead when anything but the source moved since that
   * render (cluster state, decisions, eviction tasks due), or the change removes a Namespace or an object of a Helm or
   * Kustomize unit (whose origin only the base commit knows). Problems are then those of what the change reaches, not
   * of the untouched files.
   */
  fromRender?: boolean;
}

/**
 * I/O edge of `flotilla plan`: renders base from scratch, then head with base's bindings as the previous
 * scheduling result (so steady-mode scheduling decides as it will after the merge), and hands both trees
 * to the pure buildPlan. Nothing is written.
 */
export async function readPlan(repo: GitRepo, req: PlanRequest): Promise<Plan> {
  if (req.fromRender) {
    const plan = await planFromRender(repo, req);
    if (plan) return plan;
  }
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
  const takeovers = await takeoversOf(repo, (await readCommitInfo(repo, base.sha)).tree, commit, req.limits);
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

/**
 * The plan of a change to the commit the rendered branch last rendered: the head drafted over that render (nothing
 * written), each side's files read only where the draft changes them. Null when the draft cannot stand for the merge's
 * render (outputs/renderRevision.ts draftRender) or the change touches a unit, whose origins need both whole commits.
 */
async function planFromRender(repo: GitRepo, req: PlanRequest): Promise<Plan | null> {
  const outputRef = req.outputRef ?? `refs/heads/${RENDERED_BRANCH}`;
  const last = await readLastRender(repo, outputRef);
  const [base, head] = [await resolveRev(repo, req.base), await resolveRev(repo, req.head)];
  if (!last.rendered || last.source !== base || head === base) return null;
  req.onPhase?.(`rendering what the head (${req.head}) changes over the render of the base (${req.base})`);
  const draft = await draftRender(repo, head, { outputRef, ...(req.limits ? { limits: req.limits } : {}) }).catch(
    unreadable,
  );
  // A Namespace removed takes with it what the change did not render: whether its objects stay, and where the first
  // of them is written, is the whole commit's to say. So is the unit an object came from, when the head does not have
  // it from the same source.
  if (!draft || removesNamespace(draft) || (draft.unitsTouched && needsBaseOrigins(draft))) return null;
  req.onPhase?.('comparing what each cluster gets');
  const paths = [...draft.edits.keys()].filter((p) => clusterOfPath(p) !== undefined || p.startsWith('bindings/'));
  const baseFiles = await readTextFiles(repo, draft.tree, paths);
  const headFiles = new Map<string, string>();
  for (const path of paths) {
    const text = draft.edits.get(path);
    if (typeof text === 'string') headFiles.set(path, text);
  }
  const baseCommit = await readCommitInfo(repo, base);
  const commit = await readCommitInfo(repo, head);
  // The base's policies are the head's unless the change touched a file that holds some.
  const baseKarmada = draft.karmadaTouched
    ? await loadKarmadaObjects(
        repo,
        baseCommit.tree,
        await karmadaFilePaths(repo, baseCommit.tree, { tree: baseCommit.tree, karmadaFiles: draft.karmadaFiles }),
        sourceLimitsOf(req.limits),
      )
    : draft.model;
  const entries = (side: 'before' | 'after'): OutputIndex => ({
    files: {},
    templates: Object.fromEntries([...draft.entries].flatMap(([key, e]) => (e[side] ? [[key, e[side]] as const] : []))),
  });
  return buildPlan({
    base: { sha: base, files: baseFiles, index: entries('before'), overridePolicies: baseKarmada.overridePolicies },
    head: {
      sha: head,
      files: headFiles,
      index: entries('after'),
      units: unitsOf(draft.model),
      clusterUnits: clusterUnitsOf(draft.model),
      overridePolicies: draft.model.overridePolicies,
      problems: [
        ...(await Promise.all(draft.problems.map((p) => atBaseObject(repo, baseCommit.tree, p)))),
        ...(await wholeCommitChecks(draft, baseKarmada)),
        ...(draft.unitsTouched ? await takeoversOf(repo, baseCommit.tree, commit, req.limits) : []),
      ],
      explanations: draft.explanations,
      released: draft.released,
      trailers: parseTrailers(commit.message),
      // The draft held an emptied source (draftRender gave none): what it read has objects.
      source: 'ok',
    },
    inventory: await clusterInventory(repo, draft.tree, baseFiles, headFiles),
    ...(req.pruneThreshold !== undefined ? { pruneThreshold: req.pruneThreshold } : {}),
  });
}

/**
 * The whole-commit checks a draft can make: Cluster names no registration has (every policy and Cluster is read), and
 * policies that select no template. A policy the change adds or edits had every template it selects rendered; one that
 * placed a template the change reached may still select others, which the index names with their labels.
 */
async function wholeCommitChecks(draft: RenderDraft, base: ConfigModel): Promise<Problem[]> {
  const before = new Set(base.propagationPolicies.map((p) => JSON.stringify(p.object)));
  const placed = new Set([...draft.entries.values()].flatMap((e) => e.before?.policy ?? []));
  // A policy that places a template of the commit selects it (a broken one is held: its entry stays, the template is gone).
  const places = new Set(
    [...draft.entries].flatMap(([key, e]) => (draft.model.templates.has(key) ? (e.after?.policy ?? []) : [])),
  );
  const idle: Problem[] = [];
  for (const p of draft.model.propagationPolicies) {
    const changed = !before.has(JSON.stringify(p.object));
    const key = policyKey(p.object);
    if ((!changed && !placed.has(key)) || places.has(key)) continue;
    const problems = findIdlePolicies({ ...draft.model, propagationPolicies: [p] });
    if (problems.length === 0 || (!changed && (await selectsOthers(draft, p.object)))) continue;
    idle.push(...problems);
  }
  // Whether the commit creates a namespace: a Namespace the draft rendered is in its model, any other in the index.
  const { model, index, affected } = draft;
  const namespaces = [...model.templates.values()].flatMap((t) =>
    t.ref.namespace ? [refKey({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: t.ref.namespace })] : [],
  );
  await index.load({ templates: namespaces });
  const uncreated = findUncreatedNamespaces(
    model,
    (key) => model.templates.has(key) || (!affected.has(key) && index.template(key) !== undefined),
  );
  return [...findUnknownClusterNames(model), ...idle, ...uncreated];
}

/** A folder the change turns from a unit into an overlay's base: its objects' source moves, said in the plan. */
async function takeoversOf(
  repo: GitRepo,
  baseTree: string,
  head: CommitInfo,
  limits: RenderLimits | undefined,
): Promise<Problem[]> {
  return readUnitTakeovers(repo, baseTree, head.tree, {
    maxEntries: sourceTreeEntries(sourceLimitsOf(limits)),
  }).catch((err: unknown) => {
    throw err instanceof TreeTooLargeError ? tooLargeToPlan(head.oid, err) : err;
  });
}

/**
 * Whether the plan would name the unit an object came from by the base commit (buildPlan's `sources`): an object of a
 * unit the head no longer has from the same file, or one of a scoped unit (each cluster's variant).
 */
function needsBaseOrigins(draft: RenderDraft): boolean {
  return [...draft.entries].some(([key, { before, after }]) => {
    if (!before) return false;
    if (before.units?.length) return true;
    // A unit's template is indexed at its marker.
    return isUnitFile(before.file) && (!draft.model.templates.has(key) || after?.file !== before.file);
  });
}

function removesNamespace(draft: RenderDraft): boolean {
  return [...draft.entries].some(([key, e]) => {
    const ref = parseRefKey(key);
    return ref.apiVersion === 'v1' && ref.kind === 'Namespace' && e.before && !draft.model.templates.has(key);
  });
}

/** A refused deletion's error at the object in the base commit, as the whole-commit plan places it (atBaseLine). */
async function atBaseObject(repo: GitRepo, tree: string, problem: Problem): Promise<Problem> {
  const ref = problem.code === 'DELETION_PROTECTED' ? (problem.data?.ref as ObjectRef | undefined) : undefined;
  if (!ref) return problem;
  const text = (await readTextFiles(repo, tree, [problem.file])).get(problem.file);
  const doc = text
    ? parseDocuments(problem.file, new TextEncoder().encode(text)).documents.find((d) => writtenAs(ref, d.value))
    : undefined;
  return doc ? { ...problem, ...doc.source } : problem;
}

/** Whether the policy selects a template the draft did not render, by the index's entries. */
async function selectsOthers(draft: RenderDraft, policy: PropagationPolicy): Promise<boolean> {
  // A template the draft rendered was looked at in its model, where a broken one is absent: its held entry is not one.
  const { index, affected } = draft;
  let entries: [string, IndexEntry][];
  if (policy.kind === 'PropagationPolicy')
    entries = await index.templatesIn(new Set([policy.metadata.namespace ?? '']));
  else {
    await index.loadAll();
    entries = index.templates();
  }
  return entries.some(
    ([key, entry]) => !affected.has(key) && policySelects(policy, { ...parseRefKey(key), labels: entry.labels ?? {} }),
  );
}

/** How many files each cluster that loses one holds before the change: what the prune guard weighs its losses by. */
async function clusterInventory(
  repo: GitRepo,
  tree: string,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Promise<Map<string, number>> {
  const losing = new Set([...before.keys()].filter((p) => !after.has(p)).flatMap((p) => clusterOfPath(p) ?? []));
  const out = new Map<string, number>();
  for (const cluster of losing) out.set(cluster, (await listFolderFiles(repo, tree, `clusters/${cluster}/`)).size);
  return out;
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
