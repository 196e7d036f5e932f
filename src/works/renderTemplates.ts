import type { GracefulEvictionTask, ReplicaRequirements, ResourceBinding, TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import { describeRef, parseRefKey, refKey, WORK_API_VERSION, type ObjectRef } from '../api/kinds.ts';
import type { OverridePolicy, Placement, PropagationPolicy } from '../api/policy.ts';
import { evictBinding, type Eviction, type PurgeMode } from '../evictions/evictBinding.ts';
import { assessEvictionTasks, type TaskEnd } from '../evictions/gracefulEviction.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';
import { policiesInScope, type PolicyScope } from '../selectors/policiesInScope.ts';
import { schedule } from '../assignments/schedule.ts';
import type { ClusterExplanation, ScheduleResult, SchedulingRequest } from '../assignments/types.ts';
import { keptOutByStatus } from '../assignments/keptOutByStatus.ts';
import { divideByWebster } from '../assignments/divideByWebster.ts';
import { bindingName, permanentId } from '../names/bindingName.ts';
import { fnv1a32 } from '../hashing/fnv1a32.ts';
import { describePolicy, matchPolicy, policyKey } from '../bindings/matchPolicy.ts';
import type { ConfigModel, Located, Template } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { interpretDependencies } from '../interpreters/interpretDependencies.ts';
import { customizationFor, customRetain, interpretersOf } from '../interpreters/customizations.ts';
import { OBSERVED_REBALANCERS_ANNOTATION, pendingRequests, requestsFor } from '../assignments/rebalanceRequests.ts';
import { interpretReplicas } from '../interpreters/interpretReplicas.ts';
import { pruneForMember } from '../interpreters/pruneForMember.ts';
import { reviseJobCompletions, reviseReplicas } from '../interpreters/reviseReplicas.ts';
import { applyOverrides, type RefusedOverride } from '../overrides/applyOverrides.ts';
import { identityChanges, type IdentityChange } from '../overrides/overrideIdentity.ts';
import { autoPropagatedNamespace, keptAfterSkip } from './autoPropagatedNamespace.ts';
import { manifestYaml } from '../branches/rendered/manifestYaml.ts';
import { bindingPath, manifestPath } from '../branches/rendered/outputPaths.ts';
import type { IndexEntry, IndexView, WaitingFor } from '../branches/rendered/outputIndex.ts';
import { replicaSchedulingType } from '../assignments/replicaStrategy.ts';
import { formatMiB } from '../errors/formatMiB.ts';

export const SOURCE_COMMIT_ANNOTATION = 'flotilla.io/source-commit';

export interface RenderInput {
  model: ConfigModel;
  /** refKeys to render again; the rest of the output is left as it is. Removed templates included. */
  affected: ReadonlySet<string>;
  /** The previous index: entries of the affected templates and of their parents (who requires them) must be at hand. */
  previousIndex: IndexView;
  /** Previous bindings of the affected templates (the previous scheduling result). */
  previousBindings: ReadonlyMap<string, ResourceBinding>;
  /** Previous manifest text by output path, for the affected templates: unchanged objects keep their bytes. */
  previousFiles: Pick<ReadonlyMap<string, string>, 'has' | 'get'>;
  sourceCommit: string;
  /** Absent: no taint eviction and no graceful eviction task ends (a render with no notion of time). */
  failover?: FailoverInput;
  /**
   * Set when the commit changed nothing but these clusters' registrations. A template whose placement
   * comes out exactly as before then keeps its manifests on every other cluster without rendering them:
   * nothing they are made of (template, policies, that cluster) changed. Schedule first, render what moved.
   */
  onlyClustersChanged?: ReadonlySet<string> | null;
  /**
   * Output paths of the affected templates that the previous output holds for another object (path → its refKey):
   * such a template is held, with an error at both, rather than overwrite (and later remove) the other's file.
   */
  takenPaths?: ReadonlyMap<string, string>;
  /** Bytes of manifests and bindings one render may write; see DEFAULT_MAX_OUTPUT_BYTES. */
  maxOutputBytes?: number;
}

/**
 * What one render may write, in bytes: a commit can multiply a 4 MiB file by hundreds of registered clusters. A
 * template whose output would pass the limit is held (its last output kept) with COMMIT_TOO_LARGE at its source.
 * 256 MiB is some hundred times a fleet of 1,000 templates on 10 clusters.
 */
export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * A render that hands each written file on as soon as it exists, as `keep` makes it: renderRevision packs it
 * (hash, compression on the second thread) while the rest of the fleet renders, instead of holding every
 * file's text until the end and compressing in one burst the second thread cannot keep up with.
 */
export interface KeepingRenderInput<F> extends RenderInput {
  keep: (text: string) => F;
}

export interface FailoverInput {
  now: Date;
  /** The status branch's aggregatedStatus of templates whose binding has graceful eviction tasks, by refKey. */
  observed: ReadonlyMap<string, readonly AggregatedStatusItem[]>;
  /** A task without its own gracePeriodSeconds ends after this long (--graceful-eviction-timeout). Default 600. */
  gracePeriodSeconds?: number;
}

/** A failover decision of this render: a binding evicted from a cluster, or an evicted cluster's copy released. */
export type FailoverEvent =
  | ({ type: 'evicted'; ref: ObjectRef; result: TargetCluster[] } & Eviction)
  | { type: 'released'; ref: ObjectRef; cluster: string; why: TaskEnd['why']; result: TargetCluster[] };

/** Why each template went where it went: what `explain` prints and `plan` summarises. */
export interface TemplateExplanation {
  ref: ObjectRef;
  policy?: string;
  policyReason: string;
  schedule?: Pick<ScheduleResult, 'status' | 'message' | 'explanation' | 'affinityName'>;
  requiredBy?: string[];
  clusters: TargetCluster[];
  held?: string;
  /** WorkloadRebalancers whose request this render carried out: scheduled afresh (fresh mode). */
  rescheduledBy?: string[];
}

export interface RenderOutput<F = string> {
  /** Output path → new content (its text, or what `keep` made of it), or null to delete. */
  edits: Map<string, F | null>;
  /** Index entries set by this render, or removed (null); every other entry stays as it was. */
  indexChanges: Map<string, IndexEntry | null>;
  problems: Problem[];
  explanations: Map<string, TemplateExplanation>;
  failover: FailoverEvent[];
  /** Cluster → refKeys this render released: deleted templates whose policy said preserveResourcesOnDeletion. */
  released: Map<string, string[]>;
}

interface Placed {
  template: Template;
  binding?: ResourceBinding;
  clusters: TargetCluster[];
  entry: IndexEntry;
  explanation: TemplateExplanation;
  propagateDeps: boolean;
  policy?: Located<PropagationPolicy>;
  /** Clusters with a graceful eviction task: they keep their previous manifest, untouched, until it ends. */
  evicting: string[];
}

/**
 * The pure core of a render: for every affected template, match its policy, schedule it, attach
 * dependencies, and produce per-cluster manifests plus its binding. Everything not affected keeps its
 * previous output byte for byte, and so does anything held (invalid, duplicated, unreadable file).
 */
export function renderTemplates(input: RenderInput): RenderOutput;
export function renderTemplates<F>(input: KeepingRenderInput<F>): RenderOutput<F>;
export function renderTemplates<F>(input: RenderInput & { keep?: (text: string) => F }): RenderOutput<F | string> {
  const { model, affected, previousIndex } = input;
  const edits = new Map<string, F | string | null>();
  const keep = input.keep ?? ((text: string) => text);
  const problems: Problem[] = [];
  const explanations = new Map<string, TemplateExplanation>();
  const failover: FailoverEvent[] = [];
  const released = new Map<string, string[]>();
  const changes = new Map<string, IndexEntry | null>();
  const entryOf = (key: string) => (changes.has(key) ? changes.get(key) ?? undefined : previousIndex.template(key));
  const clusters = [...model.clusters.values()].map((c) => c.object).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));

  // Pass 1: each affected template on its own (policy, schedule). Held ones keep everything.
  const placed = new Map<string, Placed>();
  for (const key of [...affected].sort()) {
    const template = model.templates.get(key);
    const prevEntry = previousIndex.template(key);
    const heldWhy = model.collided?.has(key) ? "its output would share a file with another object's in this commit"
      : model.held.has(key) ? 'the object is invalid or defined twice in this commit'
      : prevEntry && model.unreadableFiles.has(prevEntry.file) ? `${prevEntry.file} could not be parsed` : undefined;
    if (heldWhy) {
      const collided = model.collided?.get(key);
      if (template || prevEntry || collided) explanations.set(key, { ref: template?.ref ?? parseRefKey(key), policyReason: '', clusters: [], held: `${heldWhy}: its last good output is kept` });
      // Tried again on every sync until the collision ends: then it renders as its file says now, output or not.
      if (collided) changes.set(key, prevEntry?.clusters.length ? { ...prevEntry, blocked: true } : blockedEntry(collided));
      continue;
    }
    if (!template) {
      if (prevEntry) changes.set(key, null);
      continue;
    }
    const taken = input.takenPaths?.get(bindingPath(template.ref));
    // The path is free again when the object holding it goes in this very render.
    if (taken && !(affected.has(taken) && !model.templates.has(taken))) {
      if (!prevEntry?.clusters.length) changes.set(key, blockedEntry(template));
      explanations.set(key, { ref: template.ref, policyReason: '', clusters: [], held: `its output path ${bindingPath(template.ref)} holds ${describeRef(parseRefKey(taken))}: nothing is written for it` });
      reportTakenPath(template, parseRefKey(taken), previousIndex.template(taken)?.file, problems);
      continue;
    }
    const orphaned = orphanedByPolicyDeletion(template, prevEntry, model);
    if (orphaned) {
      // Karmada: deleting a policy removes its claim but never the binding or the Works, so member objects stay.
      explanations.set(key, { ref: template.ref, policyReason: '', clusters: [], held: `${orphaned} was deleted: its last output is kept` });
      problems.push({
        ...template.source, code: 'POLICY_REMOVED', severity: 'warning',
        message: `${describeRef(template.ref)} was placed by ${orphaned}, which is gone; it keeps running where it ran and is no longer updated`,
        fix: 'add a policy that selects it to manage it again, or delete the template to remove it from the clusters',
      });
      continue;
    }
    const kept = keptAfterSkip(template, prevEntry, () => matchPolicy(template, model.propagationPolicies).status === 'matched');
    if (kept) {
      explanations.set(key, { ref: template.ref, policyReason: '', clusters: [], held: kept });
      continue;
    }
    placed.set(key, place(template, model, clusters, input.previousBindings.get(key), problems, input.failover, failover));
  }
  for (const [key, p] of placed) changes.set(key, p.entry);

  // Pass 2: dependencies go wherever any parent with propagateDeps goes (requiredBy), merged with their own result.
  // Parents: the previous ones this render left alone, plus every entry it set that lists the template.
  const newParents = new Map<string, string[]>();
  for (const [key, entry] of changes) {
    for (const dep of entry?.deps ?? []) {
      const list = newParents.get(dep);
      if (list) list.push(key);
      else newParents.set(dep, [key]);
    }
  }
  for (const [key, p] of placed) {
    const parents = [...previousIndex.parentsOf(key).filter((k) => !changes.has(k)), ...(newParents.get(key) ?? [])];
    const requiredBy = parents.filter((parent) => parent !== key).sort();
    if (requiredBy.length === 0) continue;
    const own = new Map(p.clusters.map((c) => [c.name, c.replicas]));
    const extra = new Set<string>();
    const required: NonNullable<ResourceBinding['spec']['requiredBy']> = [];
    for (const parentKey of requiredBy) {
      const parent = entryOf(parentKey)!;
      const pref = parseRefKey(parentKey);
      required.push({ namespace: pref.namespace, name: bindingName(pref.kind, pref.name), clusters: parent.clusters.map((name) => ({ name, replicas: 0 })) });
      for (const c of parent.clusters) if (!own.has(c)) extra.add(c);
    }
    p.clusters = [...p.clusters, ...[...extra].map((name) => ({ name, replicas: 0 }))].sort(byName);
    p.entry = { ...p.entry, clusters: p.clusters.map((c) => c.name) };
    p.explanation.requiredBy = requiredBy;
    p.explanation.clusters = p.clusters;
    if (p.binding) p.binding.spec.requiredBy = required;
    else p.binding = attachedBinding(p.template, required, p.clusters);
    changes.set(key, p.entry);
  }

  // Pass 3: write what each cluster runs, and remove what no longer goes there. A path freed by one template and
  // taken by another in the same render (a PATH_COLLISION resolved) is written, whichever comes first.
  const maxOutputBytes = input.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let outputBytes = 0;
  const written = new Set<string>();
  const remove = (path: string) => {
    if (!written.has(path)) edits.set(path, null);
  };
  for (const key of [...affected].sort()) {
    const p = placed.get(key);
    const prevEntry = previousIndex.template(key);
    if (explanations.has(key)) continue; // held
    const ref = p?.template.ref ?? parseRefKey(key);
    const wanted = new Set([...(p?.clusters.map((c) => c.name) ?? []), ...(p?.evicting ?? [])]);
    const bPath = bindingPath(ref);
    if (!p) {
      for (const cluster of prevEntry?.clusters ?? []) if (!wanted.has(cluster)) remove(manifestPath(cluster, ref));
      if (prevEntry?.policy) remove(bPath);
      // Karmada keeps the member objects of a deleted template when its binding says so (execution_controller).
      if (input.previousBindings.get(key)?.spec.preserveResourcesOnDeletion) {
        for (const cluster of prevEntry?.clusters ?? []) released.set(cluster, [...(released.get(cluster) ?? []), key]);
      }
      continue;
    }
    // Texts first, counted against the render's budget, so a template over it is held whole before anything is written.
    const samePlacement = input.onlyClustersChanged ? placedAsBefore(p, input.previousBindings.get(key)) : false;
    const writes: [path: string, text: string][] = [];
    let bytes = 0;
    const stage = (path: string, obj: Record<string, unknown> | ResourceBinding): boolean => {
      written.add(path); // kept or rewritten by this template: no other template's removal may take it
      const text = changedText(obj, input.previousFiles.get(path), input.sourceCommit);
      if (text === undefined) return true;
      bytes += Buffer.byteLength(text);
      if (outputBytes + bytes > maxOutputBytes) return false;
      writes.push([path, text]);
      return true;
    };
    let within = true;
    for (const target of p.clusters) {
      const cluster = model.clusters.get(target.name)?.object;
      const path = manifestPath(target.name, ref);
      if (!cluster) continue;
      if (samePlacement && !input.onlyClustersChanged!.has(target.name) && input.previousFiles.has(path)) continue;
      const manifest = renderManifest(p, target, cluster, model, problems);
      if (manifest === undefined) continue; // override failed: previous file for this cluster stays
      if (!(within = stage(path, manifest))) break;
    }
    if (within && p.binding) within = stage(bPath, p.binding);
    if (!within) {
      changes.delete(key); // the index keeps the previous entry, as for any held template
      explanations.set(key, { ...p.explanation, held: `its output would take this render past ${maxOutputBytes} bytes: its last output is kept` });
      problems.push({
        ...p.template.source, code: 'COMMIT_TOO_LARGE', severity: 'error',
        message: `${describeRef(ref)} renders to more than ${formatMiB(maxOutputBytes - outputBytes)} for ${p.clusters.length} cluster(s), past the ${formatMiB(maxOutputBytes)} a commit may render; its last output is kept`,
        fix: 'make the template smaller, or place it on fewer clusters',
      });
      continue;
    }
    outputBytes += bytes;
    explanations.set(key, p.explanation);
    for (const cluster of prevEntry?.clusters ?? []) if (!wanted.has(cluster)) remove(manifestPath(cluster, ref));
    for (const [path, text] of writes) edits.set(path, keep(text));
    if (!p.binding && prevEntry?.policy) remove(bPath);
  }
  return { edits, indexChanges: changes, problems, explanations, failover, released };
}

/** The index entry of a template held by a PATH_COLLISION with nothing rendered: listed, so every sync tries it again. */
function blockedEntry(template: Template): IndexEntry {
  return { file: template.source.file, clusters: [], ...(Object.keys(template.labels).length > 0 ? { labels: template.labels } : {}), blocked: true };
}

/** PATH_COLLISION at the new template and at the file of the object whose output holds the path (line 1: it was not read). */
function reportTakenPath(template: Template, other: ObjectRef, otherFile: string | undefined, problems: Problem[]): void {
  const path = bindingPath(template.ref);
  const message = (here: ObjectRef, there: ObjectRef, where: string) =>
    `${describeRef(here)} (${here.apiVersion}) and ${describeRef(there)} (${there.apiVersion})${where} would both be written to ${path}; both keep their last output`;
  const fix = 'rename one of the two objects (or drop one): Flotilla cannot tell their output apart';
  problems.push({ ...template.source, code: 'PATH_COLLISION', severity: 'error', message: message(template.ref, other, otherFile ? ` at ${otherFile}` : ''), fix });
  if (otherFile) problems.push({ file: otherFile, line: 1, column: 1, code: 'PATH_COLLISION', severity: 'error', message: message(other, template.ref, ` at ${template.source.file}:${template.source.line}`), fix });
}

/** The deleted policy that placed this template last time, when no remaining policy selects it; else undefined. */
function orphanedByPolicyDeletion(template: Template, prevEntry: IndexEntry | undefined, model: ConfigModel): string | undefined {
  const claim = prevEntry?.policy;
  if (!claim || prevEntry.clusters.length === 0) return undefined;
  if (model.propagationPolicies.some((p) => policyKey(p.object) === claim)) return undefined;
  if (matchPolicy(template, model.propagationPolicies).status === 'matched') return undefined;
  const ref = parseRefKey(claim);
  return describePolicy({ kind: ref.kind, metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) } });
}

function place(
  template: Template, model: ConfigModel, clusters: readonly Cluster[], previous: ResourceBinding | undefined, problems: Problem[],
  failover: FailoverInput | undefined, events: FailoverEvent[],
): Placed {
  const entryBase: IndexEntry = { file: template.source.file, clusters: [], ...(Object.keys(template.labels).length > 0 ? { labels: template.labels } : {}) };

  const ns = autoPropagatedNamespace(template);
  if (ns.propagate) {
    const targets = clusters.map((c) => ({ name: c.metadata.name, replicas: 0 }));
    return {
      template, clusters: targets, propagateDeps: false, entry: { ...entryBase, clusters: targets.map((t) => t.name) }, evicting: [],
      explanation: { ref: template.ref, policyReason: ns.reason, clusters: targets },
    };
  }

  const previousClaim = previous?.metadata.annotations?.['flotilla.io/policy'];
  const match = matchPolicy(template, model.propagationPolicies, previousClaim);
  if (match.status !== 'matched') {
    return { template, clusters: [], propagateDeps: false, entry: entryBase, evicting: [], explanation: { ref: template.ref, policyReason: match.reason, clusters: [] } };
  }
  const policy = match.policy.object;
  const custom = customizationFor(interpretersOf(model), template.manifest);
  const { replicas, resourceRequest, nodeClaim } = interpretReplicas(template.manifest, custom);
  const uid = (template.manifest.metadata as { uid?: string } | undefined)?.uid ?? '';
  const placement = policy.spec.placement ?? {};
  const requests = requestsFor(template.ref, model.rebalancers.map((r) => r.object));
  const pending = pendingRequests(requests, previous);
  // The taint manager runs before the scheduler: an evicted cluster leaves the previous result, and the replica sum
  // falling short is what makes the scheduler place the missing replicas elsewhere.
  let previousClusters = previous?.spec.clusters ?? [];
  let tasks: GracefulEvictionTask[] = previous?.spec.gracefulEvictionTasks ?? [];
  const evictedNow = new Set<string>();
  const evictions: Eviction[] = [];
  if (failover && previous) {
    const byName = new Map(clusters.map((c) => [c.metadata.name, c]));
    const evicted = evictBinding(previousClusters, tasks, byName, appliedTolerations(previous, placement), purgeModeOf(policy), failover.now);
    previousClusters = evicted.clusters;
    tasks = evicted.tasks;
    for (const e of evicted.evictions) {
      evictedNow.add(e.cluster);
      evictions.push(e);
    }
  }
  const request: SchedulingRequest = {
    ...(pending.length > 0 ? { reschedule: true } : {}),
    resource: { ...template.ref, uid },
    placement,
    replicas,
    ...(resourceRequest ? { resourceRequest } : {}),
    previous: previousClusters,
    ...(tasks.length > 0 ? { evictingClusters: tasks.map((t) => t.fromCluster) } : {}),
    ...(previous?.metadata.annotations?.['policy.karmada.io/applied-placement'] !== undefined
      ? { previousPlacement: previous.metadata.annotations['policy.karmada.io/applied-placement'] } : {}),
    ...(previous?.status?.schedulerObservedAffinityName ? { observedAffinityName: previous.status.schedulerObservedAffinityName } : {}),
  };
  const result = schedule(request, clusters);
  if (result.status === 'NoClusterFit' || result.status === 'Unschedulable' || result.status === 'SchedulerError') {
    problems.push({
      ...template.source, code: result.status === 'NoClusterFit' ? 'NO_CLUSTER_FITS' : 'UNSCHEDULABLE', severity: 'warning',
      message: `${describeRef(template.ref)} (${describePolicy(policy)}): ${result.message}`,
      fix: result.status === 'NoClusterFit'
        ? `widen the placement of ${describePolicy(policy)} (clusterAffinity, clusterTolerations) or register a matching cluster under clusters/`
        : 'add capacity or relax the spread constraints; the previous placement is kept until then',
      data: { explanation: result.explanation },
    });
  }
  const targets = [...result.clusters].sort(byName);
  for (const e of evictions) events.push({ type: 'evicted', ref: template.ref, result: targets, ...e });
  // A task created by this render waits for the next one: no status can describe the new result yet.
  if (failover && tasks.length > 0) {
    const assessed = assessEvictionTasks(tasks.filter((t) => !evictedNow.has(t.fromCluster)), failover.now, targets, failover.observed.get(refKey(template.ref)), failover.gracePeriodSeconds);
    tasks = [...assessed.kept, ...tasks.filter((t) => evictedNow.has(t.fromCluster))];
    for (const end of assessed.ended) events.push({ type: 'released', ref: template.ref, cluster: end.task.fromCluster, why: end.why, result: targets });
  }
  const evicting = tasks.map((t) => t.fromCluster).filter((c) => !targets.some((t) => t.name === c)).sort();
  const propagateDeps = policy.spec.propagateDeps === true;
  const deps = propagateDeps ? interpretDependencies(template.manifest, template.ref.namespace, custom).map(refKey) : [];
  const pKey = policyKey(policy);
  const binding = buildBinding(template, policy, pKey, replicas, { ...(nodeClaim ? { nodeClaim } : {}), ...(resourceRequest ? { resourceRequest } : {}) }, targets, result, previous);
  if (tasks.length > 0) binding.spec.gracefulEvictionTasks = tasks;
  // A request is observed once carried out; a failed fresh schedule leaves it pending, to be retried.
  const ok = result.status === 'Scheduled' || result.status === 'Unchanged';
  const observed = ok ? requests.join(',') : previous?.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION];
  if (observed) binding.metadata.annotations = { ...binding.metadata.annotations, [OBSERVED_REBALANCERS_ANNOTATION]: observed };
  const held = [...targets.map((t) => t.name), ...evicting].sort();
  const waiting = waitingFor(result, request, clusters);
  return {
    template, binding, clusters: targets, propagateDeps, policy: match.policy, evicting,
    entry: {
      ...entryBase, policy: pKey, clusters: held, ...(deps.length > 0 ? { deps } : {}), ...(evicting.length > 0 ? { evicting } : {}),
      ...(waiting ? { waiting } : {}),
    },
    explanation: {
      ref: template.ref, policy: describePolicy(policy), policyReason: match.reason, schedule: result, clusters: targets,
      ...(ok && pending.length > 0 ? { rescheduledBy: pending } : {}),
    },
  };
}

/**
 * What the binding waits for in cluster status, or undefined when its result no longer depends on it. A failed
 * schedule is tried again by every render that touches the template (its reasons name every cluster's filter, and
 * capacity decides a workload's), and so is a non-workload or Duplicated one (Karmada schedules those on every
 * reconcile), whose result a status change can grow when only status keeps a cluster it asks for out.
 */
function waitingFor(result: ScheduleResult, req: SchedulingRequest, clusters: readonly Cluster[]): WaitingFor | undefined {
  if (result.status === 'NoClusterFit' || result.status === 'Unschedulable' || result.status === 'SchedulerError') {
    return req.replicas > 0 ? { replicas: req.replicas, ...(req.resourceRequest ? { request: req.resourceRequest } : {}) } : {};
  }
  const everyTime = req.replicas <= 0 || replicaSchedulingType(req.placement) === 'Duplicated';
  return everyTime && keptOutByStatus(req, result.explanation, clusters, result.affinityName).length > 0 ? {} : undefined;
}

function buildBinding(
  template: Template, policy: PropagationPolicy, pKey: string, replicas: number, requirements: ReplicaRequirements,
  targets: TargetCluster[], result: ScheduleResult, previous: ResourceBinding | undefined,
): ResourceBinding {
  const ref = template.ref;
  const scoped = ref.namespace === '';
  const kind = scoped ? 'ClusterResourceBinding' : 'ResourceBinding';
  const claim = claimMetadata(policy);
  const ok = result.status === 'Scheduled' || result.status === 'Unchanged';
  const affinityName = result.affinityName ?? previous?.status?.schedulerObservedAffinityName;
  const uid = (template.manifest.metadata as { uid?: string } | undefined)?.uid;
  const previousSuccess = previous?.status?.conditions?.find((c) => c.type === 'Scheduled' && c.status === 'True');
  return {
    apiVersion: WORK_API_VERSION,
    kind,
    metadata: {
      name: bindingName(ref.kind, ref.name),
      ...(scoped ? {} : { namespace: ref.namespace }),
      labels: { ...claim.labels, [`${kind.toLowerCase()}.karmada.io/permanent-id`]: permanentId(`binding/${refKey(ref)}`) },
      annotations: {
        ...claim.annotations,
        'flotilla.io/policy': pKey,
        // The placement this result was computed for: a later change to it triggers rescheduling.
        'policy.karmada.io/applied-placement': ok
          ? JSON.stringify(policy.spec.placement ?? {})
          : (previous?.metadata.annotations?.['policy.karmada.io/applied-placement'] ?? JSON.stringify(policy.spec.placement ?? {})),
      },
    },
    spec: {
      resource: { apiVersion: ref.apiVersion, kind: ref.kind, ...(scoped ? {} : { namespace: ref.namespace }), name: ref.name, ...(uid ? { uid } : {}) },
      ...(replicas > 0 ? { replicas } : {}),
      // InterpretReplica's requirements (nodeClaim, resourceRequest), absent when the template has neither.
      ...(Object.keys(requirements).length > 0 ? { replicaRequirements: requirements } : {}),
      clusters: targets,
      placement: policy.spec.placement ?? {},
      ...(policy.spec.propagateDeps ? { propagateDeps: true } : {}),
      conflictResolution: policy.spec.conflictResolution ?? 'Abort',
      ...(policy.spec.preserveResourcesOnDeletion ? { preserveResourcesOnDeletion: true } : {}),
    },
    status: {
      ...(affinityName ? { schedulerObservedAffinityName: affinityName } : {}),
      conditions: [{
        type: 'Scheduled',
        status: ok ? 'True' : 'False',
        reason: ok ? 'Success' : result.status,
        // Not scheduled at all: Karmada leaves the condition alone, so a re-render does not churn its message.
        message: ok ? (result.status === 'Unchanged' ? (previousSuccess?.message ?? 'Binding kept its previous result') : 'Binding has been scheduled successfully.') : result.message,
      }],
    },
  };
}

/**
 * The tolerations the previous result was computed for (Karmada's taint manager reads the applied-placement
 * annotation); the policy's own when that annotation is missing or unreadable.
 */
function appliedTolerations(previous: ResourceBinding, placement: Placement): Placement['clusterTolerations'] {
  const applied = previous.metadata.annotations?.['policy.karmada.io/applied-placement'];
  if (applied) {
    try {
      return (JSON.parse(applied) as Placement).clusterTolerations;
    } catch {
      // fall through
    }
  }
  return placement.clusterTolerations;
}

/** failover.cluster.purgeMode of the policy, else Karmada's default --no-execute-taint-eviction-purge-mode (Gracefully). */
function purgeModeOf(policy: PropagationPolicy): PurgeMode {
  const mode = (policy.spec.failover as { cluster?: { purgeMode?: string } } | undefined)?.cluster?.purgeMode;
  return mode === 'Directly' || mode === 'Never' ? mode : 'Gracefully';
}

/** A dependency with no policy of its own still gets a binding: Karmada's attached ResourceBinding. */
function attachedBinding(template: Template, requiredBy: NonNullable<ResourceBinding['spec']['requiredBy']>, targets: TargetCluster[]): ResourceBinding {
  const ref = template.ref;
  return {
    apiVersion: WORK_API_VERSION,
    kind: 'ResourceBinding',
    metadata: {
      name: bindingName(ref.kind, ref.name),
      namespace: ref.namespace,
      labels: { 'resourcebinding.karmada.io/permanent-id': permanentId(`binding/${refKey(ref)}`) },
    },
    spec: {
      resource: { apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace, name: ref.name },
      requiredBy,
      clusters: targets,
    },
  };
}

function claimMetadata(policy: PropagationPolicy): { labels: Record<string, string>; annotations: Record<string, string> } {
  const id = permanentId(`policy/${policyKey(policy)}`);
  if (policy.kind === 'PropagationPolicy') {
    return {
      labels: { 'propagationpolicy.karmada.io/permanent-id': id },
      annotations: { 'propagationpolicy.karmada.io/name': policy.metadata.name, 'propagationpolicy.karmada.io/namespace': policy.metadata.namespace ?? 'default' },
    };
  }
  return {
    labels: { 'clusterpropagationpolicy.karmada.io/permanent-id': id },
    annotations: { 'clusterpropagationpolicy.karmada.io/name': policy.metadata.name },
  };
}

/**
 * One member's manifest, in Karmada's order (binding/common.go#ensureWork): revise replicas, split Job
 * completions, apply overrides last, then Karmada's and Flotilla's labels and annotations.
 * undefined when an override fails: that cluster keeps its previous output.
 */
function renderManifest(p: Placed, target: TargetCluster, cluster: Cluster, model: ConfigModel, problems: Problem[]): Record<string, unknown> | undefined {
  const ref = p.template.ref;
  let m = prunedFor(p.template);
  // name and namespace first, as kubectl prints them; the rest keeps the template's order.
  if (ref.namespace) m = { ...m, metadata: { name: ref.name, namespace: ref.namespace, ...(m.metadata as object) } };
  const custom = customizationFor(interpretersOf(model), p.template.manifest);
  const isWorkload = (p.binding?.spec.replicas ?? 0) > 0 || p.binding?.spec.replicaRequirements !== undefined;
  if (isWorkload) m = reviseReplicas(m, target.replicas, custom);
  const completions = (p.template.manifest.spec as { completions?: number } | undefined)?.completions;
  const divided = p.policy?.object.spec.placement?.replicaScheduling?.replicaSchedulingType === 'Divided';
  if (ref.kind === 'Job' && divided && typeof completions === 'number' && p.clusters.length > 0) {
    const uid = (p.template.manifest.metadata as { uid?: string } | undefined)?.uid ?? '';
    const split = divideByWebster(completions, p.clusters.map((c) => ({ name: c.name, weight: c.replicas })), uid);
    m = reviseJobCompletions(m, split.find((c) => c.name === target.name)?.replicas ?? 0);
  }
  const policies = overridesFor(p.template, model);
  // No candidate policy: nothing to apply, and no copy to make (most templates, on most clusters).
  const overridden = policies.length === 0 ? { ok: true as const, manifest: m, applied: [], refused: [] } : applyOverrides(m, cluster, policies);
  if (!overridden.ok) {
    problems.push({
      ...p.template.source, code: 'OVERRIDE_FAILED', severity: 'error',
      message: `${overridden.policy.kind} ${overridden.policy.namespace ? `${overridden.policy.namespace}/` : ''}${overridden.policy.name} rule ${overridden.ruleIndex} (${overridden.overrider}) failed on ${describeRef(ref)} for cluster ${target.name}: ${overridden.message}`,
      fix: `correct the ${overridden.overrider} of that rule; until then ${target.name} keeps its previous ${ref.kind}`,
    });
    return undefined;
  }
  for (const refusal of overridden.refused) reportRefusedOverride(refusal, p.template, model, problems);
  const before = m;
  m = custom ? customRetain(custom, overridden.manifest) : overridden.manifest;
  // Nothing after the template may make this another object: it would be written under the template's path.
  const changed = identityChanges(before, m);
  if (changed.length > 0) {
    problems.push({
      ...p.template.source, code: 'OVERRIDE_FAILED', severity: 'error',
      message: `${describeRef(ref)} would reach ${target.name} as another object (${describeIdentityChanges(changed)}); the template's identity is kept by refusing the manifest`,
      fix: `remove what changes ${changed.map((c) => c.field).join(' and ')} (a retain or replica customization); until then ${target.name} keeps its previous ${ref.kind}`,
    });
    return undefined;
  }
  const meta = { ...((m.metadata ?? {}) as Record<string, unknown>) };
  const labels: Record<string, string> = { ...((meta.labels ?? {}) as Record<string, string>) };
  const annotations: Record<string, string> = { ...((meta.annotations ?? {}) as Record<string, string>) };
  if (p.binding) {
    Object.assign(labels, Object.fromEntries(Object.entries(p.binding.metadata.labels ?? {})));
    if (p.binding.kind === 'ResourceBinding') {
      annotations['resourcebinding.karmada.io/namespace'] = p.binding.metadata.namespace ?? '';
      annotations['resourcebinding.karmada.io/name'] = p.binding.metadata.name;
    } else {
      annotations['clusterresourcebinding.karmada.io/name'] = p.binding.metadata.name;
    }
    for (const [k, v] of Object.entries(p.binding.metadata.annotations ?? {})) {
      if (k.includes('propagationpolicy.karmada.io/')) annotations[k] = v;
    }
  }
  labels['karmada.io/managed'] = 'true';
  // The template's own annotation wins over the policy (binding/common.go#mergeConflictResolution).
  const own = ((p.template.manifest.metadata as { annotations?: Record<string, string> } | undefined)?.annotations ?? {})['work.karmada.io/conflict-resolution'];
  annotations['work.karmada.io/conflict-resolution'] = own === 'overwrite' || own === 'abort' ? own : (p.binding?.spec.conflictResolution === 'Overwrite' ? 'overwrite' : 'abort');
  annotations['work.karmada.io/namespace'] = `karmada-es-${target.name}`;
  annotations['work.karmada.io/name'] = workNameOf(p.template);
  const applied = overridden.applied;
  const cops = applied.filter((a) => a.policy.startsWith('ClusterOverridePolicy'));
  const ops = applied.filter((a) => !a.policy.startsWith('ClusterOverridePolicy'));
  if (cops.length > 0) annotations['policy.karmada.io/applied-cluster-overrides'] = JSON.stringify(cops);
  if (ops.length > 0) annotations['policy.karmada.io/applied-overrides'] = JSON.stringify(ops);
  meta.labels = labels;
  meta.annotations = annotations;
  return { ...m, metadata: meta };
}

/**
 * One error per policy rule and template, at the policy (not per cluster): the rule was not applied, so each
 * cluster gets the template under its own identity, with the policy's other rules.
 */
function reportRefusedOverride(refusal: RefusedOverride, template: Template, model: ConfigModel, problems: Problem[]): void {
  const { policy, ruleIndex, changes } = refusal;
  const source = model.overridePolicies.find((o) => o.object === policy)?.source ?? template.source;
  const name = `${policy.kind} ${policy.metadata.namespace && policy.kind === 'OverridePolicy' ? `${policy.metadata.namespace}/` : ''}${policy.metadata.name}`;
  const rule = ruleIndex < 0 ? 'spec.overriders' : `spec.overrideRules[${ruleIndex}]`;
  const message = `${name} ${rule} would change the identity of ${describeRef(template.ref)} (${describeIdentityChanges(changes)}): that rule is not applied`;
  if (problems.some((p) => p.message === message && p.file === source.file && p.line === source.line)) return;
  problems.push({
    ...source, code: 'OVERRIDE_FAILED', severity: 'error', message,
    fix: `remove the overriders of ${rule} that write ${changes.map((c) => c.field).join(', ')}: an override may change what an object holds, not which object it is; to place another object, add its own template`,
    data: { policy: name, ruleIndex, template: refKey(template.ref), changes },
  });
}

function describeIdentityChanges(changes: readonly IdentityChange[]): string {
  const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  return changes.map((c) => `${c.field} ${show(c.from)} → ${show(c.to)}`).join(', ');
}

/** The Work's name (the same on every cluster): hashed once per template, not once per manifest. */
const workNames = new WeakMap<Template, string>();
function workNameOf(t: Template): string {
  let name = workNames.get(t);
  if (name === undefined) {
    const ref = t.ref;
    const full = `${ref.namespace ? `${ref.namespace}-` : ''}${ref.name.replaceAll(':', '.')}-${ref.kind}`.toLowerCase();
    workNames.set(t, (name = `${ref.name.replaceAll(':', '.').toLowerCase()}-${fnv1a32(full).toString(16)}`));
  }
  return name;
}

/**
 * The template as every member gets it before per-cluster changes, made once per template rather than
 * once per cluster. Shared between clusters: each later step returns new objects and never mutates it.
 */
const prunedCache = new WeakMap<Template, Record<string, unknown>>();
function prunedFor(t: Template): Record<string, unknown> {
  let pruned = prunedCache.get(t);
  if (!pruned) prunedCache.set(t, (pruned = pruneForMember(t.manifest)));
  return pruned;
}

/**
 * The override policies that can touch this template, found once per template instead of once per
 * manifest: with many OverridePolicies, matching every one for every cluster dominated rendering.
 * A superset is fine — applyOverrides makes the exact decision.
 */
const overrideCache = new WeakMap<Template, OverridePolicy[]>();
function overridesFor(t: Template, model: ConfigModel): OverridePolicy[] {
  let found = overrideCache.get(t);
  if (!found) {
    found = policiesInScope(model.overridePolicies, t.ref.namespace, OVERRIDE_SCOPE).map((o) => o.object).filter((o) =>
      (!o.spec.resourceSelectors || o.spec.resourceSelectors.length === 0 ||
        bestSelectorMatch(o.spec.resourceSelectors, { ...t.ref, labels: t.labels }) !== ImplicitPriority.NotMatched));
    overrideCache.set(t, found);
  }
  return found;
}

/** A ClusterOverridePolicy applies in every namespace; an OverridePolicy in its own ('default' when unset). */
const OVERRIDE_SCOPE: PolicyScope<OverridePolicy> = {
  clusterWide: (o) => o.kind === 'ClusterOverridePolicy',
  namespaceOf: (o) => o.metadata.namespace ?? 'default',
};

/**
 * Writes the object unless the previous file says the same thing apart from the source-commit stamp:
 * then the old bytes stay, so the stamp names the commit that last changed what this object became.
 */
/** The object's text stamped with the source commit; undefined when it equals the previous file but for the stamp. */
function changedText(obj: Record<string, unknown> | ResourceBinding, previous: string | undefined, commit: string): string | undefined {
  const meta = (obj.metadata ?? {}) as { annotations?: Record<string, string> };
  const stamped = { ...obj, metadata: { ...meta, annotations: { ...(meta.annotations ?? {}), [SOURCE_COMMIT_ANNOTATION]: commit } } };
  const text = manifestYaml(stamped);
  if (previous !== undefined && unstamp(previous) === unstamp(text)) return undefined;
  return text;
}


const STAMP_LINE = new RegExp(`^(\\s*${SOURCE_COMMIT_ANNOTATION.replace(/[./]/g, '\\$&')}: ).*$`, 'm');
function unstamp(text: string): string {
  return text.replace(STAMP_LINE, '$1');
}

/** Same target clusters with the same replicas as the previous binding, and no clusters added for dependents. */
function placedAsBefore(p: Placed, previous: ResourceBinding | undefined): boolean {
  const before = previous?.spec.clusters;
  const now = p.binding?.spec.clusters;
  if (!before || !now || p.explanation.requiredBy || previous.spec.requiredBy) return false;
  if (now.length !== p.clusters.length || now.length !== before.length) return false;
  return now.every((c, i) => c.name === before[i]!.name && c.replicas === before[i]!.replicas && p.clusters[i]!.name === c.name && p.clusters[i]!.replicas === c.replicas);
}

function byName(a: TargetCluster, b: TargetCluster): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}


export type { ClusterExplanation };
