import { TreeEdits } from '../commits/TreeEdits.ts';
import { eventLoopTurns, type EventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { canonicalQuantity } from '../quantities/canonicalQuantity.ts';
import { atTemplate } from '../api/templatePlace.ts';
import { LuaHookError } from '../interpreters/lua/luaRuntime.ts';
import { BundledInterpreterError } from '../interpreters/thirdParty/thirdPartyInterpreter.ts';
import { workClusters, type ResourceBinding, type TargetCluster } from '../api/binding.ts';
import type { Cluster, Taint } from '../api/cluster.ts';
import { describeRef, parseRefKey, refKey, type ObjectRef } from '../api/kinds.ts';
import {
  applicationFailoverOf,
  dispatchingSuspended,
  type ApplicationFailover,
  type PropagationPolicy,
} from '../api/policy.ts';
import type { Customizations } from '../api/interpreterCustomization.ts';
import { DEPENDENCIES_ANNOTATION, hasDependencyHook } from '../interpreters/interpretDependencies.ts';
import { interpretsHealth } from '../interpreters/healthHook.ts';
import { evictFailedApplications, type ApplicationFailure } from '../evictions/applicationFailover.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import { NO_AFFINITY_MATCH } from '../assignments/plugins/clusterAffinity.ts';
import { scheduleBinding } from '../assignments/scheduleBinding.ts';
import type { ClusterExplanation, ScheduleResult, SchedulingRequest } from '../assignments/types.ts';
import {
  claimTemplate,
  DEFAULT_SCHEDULER,
  orphanedByPolicy,
  schedulerOf,
  type ClaimedBinding,
} from '../bindings/claimTemplate.ts';
import { describePolicy, matchPolicy, policyKey } from '../bindings/matchPolicy.ts';
import { missingDependentOverrides } from '../bindings/dependentOverrides.ts';
import { withoutPolicyClaim } from '../bindings/policyClaim.ts';
import type { ConfigModel, Located, Template } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { formatSize } from '../errors/formatMiB.ts';
import type { Eviction } from '../evictions/evictBinding.ts';
import { evictTaintedClusters, type EvictedResult } from '../evictions/evictTaintedClusters.ts';
import { taintEviction } from '../evictions/taintEviction.ts';
import { earliestGraceEnd, type TaskEnd } from '../evictions/gracefulEviction.ts';
import { syncEvictionTasks } from '../evictions/syncEvictionTasks.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import { autoPropagatedNamespace, keptAfterSkip, namespaceSyncCopies } from './autoPropagatedNamespace.ts';
import { federatedQuotaManifest } from './federatedQuotaWork.ts';
import {
  assignedClusters,
  isFederatedResourceQuota,
  type FederatedResourceQuota,
} from '../api/federatedResourceQuota.ts';
import { changedText, sameAsParsed } from './changedText.ts';
import { dependenciesOf, distributeDependencies } from './distributeDependencies.ts';
import { bindingPath, manifestPath } from '../branches/rendered/outputPaths.ts';
import type { SharedParts } from '../branches/rendered/manifestYaml.ts';
import type { IndexEntry, IndexView, UnitVariantEntry } from '../branches/rendered/outputIndex.ts';
import { renderWorkManifest } from './renderWorkManifest.ts';
import { writeShrunkResults, type ShrunkResult } from './shrunkResults.ts';
import { customizationFor, interpretersOf } from '../interpreters/customizations.ts';
import { interpretReplicas } from '../interpreters/interpretReplicas.ts';
import { scopeSelects, templateOn, variantOn, variantUnits } from '../documents/templateVariants.ts';
import { markScaleTarget, scaleTargetOf, scaleTargets } from './markScaleTargets.ts';
import {
  claimForMultiClusterService,
  multiClusterServiceFor,
  multiClusterServiceKeyOf,
} from '../bindings/claimForMultiClusterService.ts';
import { isCrossCluster, isMultiClusterService, unknownClusters } from '../interpreters/dispatchEndpointSlices.ts';
import {
  MULTI_CLUSTER_SERVICE_KIND,
  NETWORKING_API_VERSION,
  type MultiClusterService,
} from '../api/multiClusterService.ts';
import { suggestName } from '../text/suggestName.ts';
import {
  DELETION_PROTECTION_ALWAYS,
  DELETION_PROTECTION_LABEL,
  deletionRefused,
  isDeletionProtected,
  namespaceKept,
  protectedInNamespace,
} from './deletionProtection.ts';
import { multiClusterServicePath } from '../branches/rendered/multiClusterServices.ts';
import { refusedBindingName, type RefusedName } from '../names/refusedBindingName.ts';

// A render runs Karmada's controllers in their order, each a pure stage over one template: the detector claims it
// (bindings/claimTemplate), the taint manager evicts from its previous result (evictions/evictTaintedClusters), the
// scheduler places it (assignments/scheduleBinding), the graceful eviction controller ends due tasks
// (evictions/syncEvictionTasks); then the dependencies distributor attaches what propagateDeps parents require
// (distributeDependencies), and the binding controller makes each cluster's Work manifest (renderWorkManifest).
// This file only runs them in order and turns their results into output edits and index entries.

export { SOURCE_COMMIT_ANNOTATION } from './changedText.ts';

export interface RenderInput {
  model: ConfigModel;
  /** refKeys to render again; the rest of the output is left as it is. Removed templates included. */
  affected: ReadonlySet<string>;
  /** The previous index: entries of the affected templates and of their parents (who requires them) must be at hand. */
  previousIndex: IndexView;
  /** Previous bindings of the affected templates (the previous scheduling result). */
  previousBindings: ReadonlyMap<string, ResourceBinding>;
  /**
   * For each Namespace this render removes (an affected v1 Namespace the model lacks), by name: the previous index
   * entries of the templates in it. A protected one among them keeps the Namespace (protectedInNamespace). Absent:
   * none looked up, and a removed Namespace goes.
   */
  namespaceContents?: ReadonlyMap<string, readonly (readonly [string, IndexEntry])[]>;
  /** Previous manifest text by output path, for the affected templates: unchanged objects keep their bytes. */
  previousFiles: Pick<ReadonlyMap<string, string>, 'has' | 'get'>;
  /**
   * Output path → what the previous file's text parses into, where the caller read it so (the bindings): an object
   * that comes out the same is known unchanged without writing its text out (changedText.ts, sameAsParsed).
   */
  previousParsed?: ReadonlyMap<string, unknown>;
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
  /**
   * Whether each explanation keeps the scheduler's reason for every registered cluster (schedule.explanation) and
   * the clusters it placed the template on (clusters), which explain, plan and the dashboard print. Default true. A
   * render that writes the output branch reads none of them (the binding it writes has the clusters), and kept for
   * a whole render they grow with templates × clusters: 50,000 × 500 is 25 million reasons, and ~3.5 million targets.
   * 'moved': kept for the templates whose result differs from their previous binding's, all a plan prints.
   */
  clusterReasons?: boolean | 'moved';
  /**
   * The caller hands `model.templates` over: it is emptied once every template is placed (nothing reads it past
   * placement), so each parsed template goes with its placement as soon as its files are written, not at the end.
   */
  releaseTemplates?: boolean;
  /**
   * Templates not in `affected` whose result a relabel only takes clusters out of (works/shrunkResults.ts): their
   * binding and entry as given, their manifest removed from the lost clusters. Their dependencies, in `affected`, follow
   * the new entry.
   */
  shrunk?: ReadonlyMap<string, ShrunkResult>;
}

/**
 * What one render may write, in bytes: a commit can multiply a 16 MiB file by hundreds of registered clusters. A
 * template whose output would pass the limit is held (its last output kept) with COMMIT_TOO_LARGE at its source.
 * 512 MiB holds the bench's L fleet (10,000 templates on 100 clusters, some 140,000 manifests with Karmada's Work labels
 * and annotations) with room to spare.
 */
export const DEFAULT_MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

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
  /**
   * The status branch's aggregatedStatus, by refKey, of templates whose binding has graceful eviction tasks or
   * failover.application (readsTemplateHealth).
   */
  observed: ReadonlyMap<string, readonly AggregatedStatusItem[]>;
  /** A task without its own gracePeriodSeconds ends after this long (--graceful-eviction-timeout). Default 600. */
  gracePeriodSeconds?: number;
}

/**
 * A failover decision of this render: a binding evicted from a cluster (a NoExecute taint, or its application
 * Unhealthy for longer than failover.application tolerates), or an evicted cluster's copy released.
 */
export type FailoverEvent =
  | ({ type: 'evicted'; ref: ObjectRef; result: TargetCluster[] } & Eviction)
  | ({ type: 'failed-over'; ref: ObjectRef; result: TargetCluster[] } & ApplicationFailure)
  | {
      type: 'released';
      ref: ObjectRef;
      cluster: string;
      why: TaskEnd['why'];
      /** The result the task was assessed against: the replacements. */
      result: TargetCluster[];
      /** The binding was scheduled on the cluster again once the task ended, so its copy stays. */
      placedAgain?: true;
    };

/** Why each template went where it went: what `explain` prints and `plan` summarises. */
export interface TemplateExplanation {
  ref: ObjectRef;
  policy?: string;
  policyReason: string;
  schedule?: Pick<ScheduleResult, 'status' | 'message' | 'detail' | 'explanation' | 'affinityName'>;
  requiredBy?: string[];
  clusters: TargetCluster[];
  held?: string;
  /** WorkloadRebalancers whose request this render carried out: scheduled afresh (fresh mode). */
  rescheduledBy?: string[];
  /** refKeys of the propagated HPAs that scale it: the members' replicas are theirs, retained on every apply. */
  scaledBy?: string[];
  /** The FederatedHPA whose decision (status branch) gave the replicas the scheduler divided. */
  autoscaledBy?: string;
}

export interface RenderOutput<F = string> {
  /** Output path → new content (its text, or what `keep` made of it), or null to delete. */
  edits: Map<string, F | null>;
  /** Index entries set by this render, or removed (null); every other entry stays as it was. */
  indexChanges: Map<string, IndexEntry | null>;
  problems: Problem[];
  explanations: Map<string, TemplateExplanation>;
  failover: FailoverEvent[];
  /**
   * Cluster → refKeys this render released under preserveResourcesOnDeletion: deleted templates, and templates whose
   * result no longer holds the cluster.
   */
  released: Map<string, string[]>;
  /**
   * For each template this render placed whose binding holds graceful eviction tasks: the earliest grace end of one of
   * them (earliestGraceEnd, epoch milliseconds), null when none ends by time. The others' tasks are as they were.
   */
  evictionEnds: Map<string, number | null>;
  /**
   * Whether the commit went past its output budget (maxOutputBytes): a template held for it (COMMIT_TOO_LARGE), or the
   * results written from their last bindings (`shrunk`), counted first, past it on their own.
   */
  overBudget: boolean;
}

interface Placed {
  template: Template;
  /** Its explanation keeps no cluster's reasons (RenderInput.clusterReasons). */
  reasonless?: true;
  binding?: ResourceBinding;
  clusters: TargetCluster[];
  entry: IndexEntry;
  explanation: TemplateExplanation;
  policy?: Located<PropagationPolicy>;
  /** Clusters with a graceful eviction task: they keep their previous manifest, untouched, until it ends. */
  evicting: string[];
  /**
   * With graceful eviction tasks on the binding: when the next render must look at them whatever the status says
   * (RenderOutput.evictionEnds), epoch milliseconds; null when only a status move can end them.
   */
  evictionEnd?: number | null;
  /** Clusters that keep namespace sync's copy of a Namespace its policy does not place there, untouched. */
  namespaceSync?: string[];
  /**
   * Claimed by a policy whose dependentOverrides (`missing`), or whose schedulePriority's PriorityClass
   * (`priorityClass`), the commit lacks: nothing is placed, its last output is kept.
   */
  waitsFor?:
    | { policy: Located<PropagationPolicy>; missing: string[] }
    | { policy: Located<PropagationPolicy>; priorityClass: string };
  /** Claimed, but the binding or Work Karmada would name after it is refused by its API server: nothing is placed. */
  refusedName?: RefusedName;
}

/** The per-render view every template is scheduled against, built once (Karmada's scheduler cache snapshot). */
interface Snapshot {
  /** Registered clusters sorted by name. */
  clusters: readonly Cluster[];
  /** The same by name, built on first use (only the taint manager needs it). */
  byName: () => ReadonlyMap<string, Cluster>;
  rebalancers: readonly WorkloadRebalancer[];
}

/**
 * The pure core of a render: for every affected template, match its policy, schedule it, attach
 * dependencies, and produce per-cluster manifests plus its binding. Everything not affected keeps its
 * previous output byte for byte, and so does anything held (invalid, duplicated, unreadable file).
 */
export function renderTemplates(input: RenderInput): Promise<RenderOutput>;
export function renderTemplates<F>(input: KeepingRenderInput<F>): Promise<RenderOutput<F>>;
export async function renderTemplates<F>(
  input: RenderInput & { keep?: (text: string) => F },
): Promise<RenderOutput<F | string>> {
  const out: RenderOutput<F | string> = {
    // A cold render writes millions of paths: kept as the folders they go in, which the tree write takes as they are.
    edits: new TreeEdits(),
    indexChanges: new Map(),
    problems: [],
    explanations: new Map(),
    failover: [],
    released: new Map(),
    evictionEnds: new Map(),
    overBudget: false,
  };
  const keys = [...input.affected].sort();
  const snapshot = snapshotOf(input.model);
  // A fleet's worth of templates runs for seconds: the event loop gets a turn between two of them now and then.
  const turns = eventLoopTurns();
  const write = (path: string, text: string) => out.edits.set(path, input.keep ? input.keep(text) : text);

  // 1. Each affected template on its own: detector, taint manager, scheduler, graceful eviction. Held ones keep everything.
  const placed = new Map<string, Placed>();
  // HPAs a render holds with their last output (their policy gone, say): still running on members, so still marking
  // their target (Karmada's marker lets go only when the HPA is deleted or retargets).
  const heldScalers = new Map<string, string>();
  const holdsScaler = (key: string, template: Template | undefined) => {
    // The template's target, which a replay from bindings alone (verify) knows too: an HPA retargeted while held
    // marks its new target, where Karmada's marker marks neither (it adds only for a claimed HPA).
    const target = template && scaleTargetOf(template);
    if (target && input.previousIndex.template(key)?.clusters.length) heldScalers.set(key, target);
  };
  // Policies whose PriorityClass is missing, with the templates they claimed: one error each, after the loop.
  const noPriorityClass = new Map<
    string,
    { policy: Located<PropagationPolicy>; priorityClass: string; templates: ObjectRef[] }
  >();
  for (const key of keys) {
    if (turns.due()) await turns.give();
    const template = input.model.templates.get(key);
    if (held(key, template, input, out, write) || !template) {
      holdsScaler(key, template);
      continue;
    }
    let p: Placed;
    try {
      p = place(
        template,
        input.model,
        snapshot,
        input.previousBindings.get(key),
        input.previousIndex.template(key)?.claim,
        out.problems,
        input.failover,
        out.failover,
        input.clusterReasons,
      );
    } catch (err) {
      if (!(err instanceof LuaHookError)) throw err;
      // Karmada's detector retries a template whose interpreter fails, and its binding stays as it was.
      holdForHook(key, template, err, out);
      holdsScaler(key, template);
      continue;
    }
    if (p.waitsFor) {
      waitForPolicy(key, p, p.waitsFor, input, out, write, noPriorityClass);
      holdsScaler(key, template);
      continue;
    }
    if (p.refusedName) {
      holdForName(key, template, p.refusedName, out);
      holdsScaler(key, template);
      continue;
    }
    if (!keepsReasons(input.clusterReasons, p, input.previousBindings.get(key))) {
      p.reasonless = true;
      if (p.explanation.schedule) p.explanation.schedule = withoutClusterReasons(p.explanation.schedule);
    }
    if (p.policy) p = withNamespaceSyncCopies(p, input.previousIndex.template(key), input.model);
    placed.set(key, p);
    if (p.evictionEnd !== undefined) out.evictionEnds.set(key, p.evictionEnd);
  }
  for (const waiter of noPriorityClass.values()) out.problems.push(priorityClassProblem(waiter));
  markHpaTargets(placed, heldScalers);
  for (const [key, p] of placed) out.indexChanges.set(key, p.entry);
  for (const [key, s] of input.shrunk ?? []) {
    out.indexChanges.set(key, s.entry);
    if (s.evicted) out.evictionEnds.set(key, s.evicted.lookAt);
  }
  addUnrenderedFailovers(input.shrunk, out.failover);

  // 2. Dependencies go wherever any parent with propagateDeps goes (requiredBy), merged with their own result.
  const mayGo = (template: Template, name: string) => {
    const cluster = template.variants && snapshot.byName().get(name);
    return !cluster || scopeSelects(template, cluster);
  };
  for (const [key, attached] of await distributeDependencies(placed, out.indexChanges, input.previousIndex, mayGo)) {
    const p = placed.get(key)!;
    // The attached binding Karmada's dependencies distributor would create is refused as a claimed one's would be.
    const refusedName = refusedNameOf(p.template);
    if (refusedName) {
      placed.delete(key);
      out.indexChanges.delete(key);
      holdForName(key, p.template, refusedName, out);
      continue;
    }
    p.clusters = attached.clusters;
    const names = attached.clusters.map((c) => c.name);
    const { replicas: _, own: _own, ...entry } = p.entry;
    const replicas = entry.deps ? replicasOn(names, attached.clusters) : undefined;
    const grown = entry.deps !== undefined && names.some((c) => !entry.clusters.includes(c));
    p.entry = {
      ...entry,
      clusters: names,
      ...(replicas ? { replicas } : {}),
      ...(grown ? { own: entry.clusters } : {}),
    };
    p.explanation.requiredBy = attached.requiredBy;
    p.explanation.clusters = attached.clusters;
    p.binding = attached.binding;
    out.indexChanges.set(key, p.entry);
    if (attached.policyConflict)
      out.problems.push({
        ...atTemplate(
          p.template,
          `${describeRef(p.template.ref)} is a dependency of ${attached.requiredBy.map((k) => describeRef(parseRefKey(k))).join(', ')}, whose policies disagree. ${attached.policyConflict} Its binding takes Overwrite and preserving on deletion from any parent that has them, as Karmada's does`,
        ),
        code: 'DEPENDENCY_POLICY_CONFLICT',
        severity: 'warning',
        fix: "give the parents' policies the same conflictResolution and preserveResourcesOnDeletion, or give the dependency a policy of its own",
      });
  }

  // Which unit's variant each cluster gets, recorded for incremental renders, blame and history.
  for (const [key, p] of placed) {
    if (!p.template.variants) continue;
    p.entry = { ...p.entry, units: unitEntries(p.template, p.entry.clusters, snapshot) };
    out.indexChanges.set(key, p.entry);
  }
  if (input.releaseTemplates) input.model.templates.clear();

  // 3. The binding controller: write what each cluster runs, and remove what no longer goes there.
  const keep: (text: string) => F | string = input.keep ?? ((text) => text);
  const shrunkBytes = writeShrunkResults(input.shrunk ?? new Map(), input.sourceCommit, keep, out.edits, out.released);
  await writeWorks(keys, placed, input, keep, out, shrunkBytes, turns);
  return out;
}

/**
 * The evictions of templates the taint manager evicted without a render, and the ends of tasks ended without one
 * (works/shrunkResults.ts), among those of the rendered ones in template order, as a render of every one of them
 * would have listed them.
 */
function addUnrenderedFailovers(shrunk: ReadonlyMap<string, ShrunkResult> | undefined, events: FailoverEvent[]): void {
  const before = events.length;
  for (const [key, s] of shrunk ?? []) {
    for (const e of s.evicted?.evictions ?? [])
      events.push({ type: 'evicted', ref: parseRefKey(key), result: [...s.evicted!.result], ...e });
    for (const end of s.released?.ends ?? [])
      events.push({
        type: 'released',
        ref: parseRefKey(key),
        cluster: end.task.fromCluster,
        why: end.why,
        result: [...s.released!.result],
        ...(s.released!.placedAgain.includes(end.task.fromCluster) ? { placedAgain: true as const } : {}),
      });
  }
  if (events.length === before) return;
  const keyed = events.map((e) => ({ e, key: refKey(e.ref) }));
  // Stable: one template's events keep their order.
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  keyed.forEach(({ e }, i) => {
    events[i] = e;
  });
}

/**
 * Whether the template's last output is kept as it is, and what this render records for it (explanation, index
 * entry, problems): invalid or duplicated or colliding in this commit, its file unreadable, removed (its outputs go
 * in step 3) unless deletion-protected or a Namespace a protected template still lives in, its output path taken by
 * another object, orphaned by a deleted policy (its binding then loses the policy's claim, through `write`), or a
 * Namespace kept after its skip label. Removed templates only lose their index entry here.
 */
function held(
  key: string,
  template: Template | undefined,
  input: RenderInput,
  out: RenderOutput<unknown>,
  write: (path: string, text: string) => void,
): boolean {
  const { model, affected, previousIndex } = input;
  const { explanations, indexChanges: changes, problems } = out;
  const prevEntry = previousIndex.template(key);
  const unreadableWhy =
    prevEntry && model.unreadableFiles.has(prevEntry.file)
      ? `${prevEntry.file} could not be parsed`
      : // A scoped unit that fails keeps its variant on its clusters: the whole template waits, as for its own file.
        prevEntry?.units?.some((u) => model.unreadableFiles.has(u.file))
        ? `${prevEntry.units.find((u) => model.unreadableFiles.has(u.file))!.file} could not be rendered`
        : undefined;
  const heldWhy = model.collided?.has(key)
    ? "its output would share a file with another object's in this commit"
    : model.held.has(key)
      ? 'the object is invalid or defined twice in this commit'
      : unreadableWhy;
  if (heldWhy) {
    const collided = model.collided?.get(key);
    if (template || prevEntry || collided)
      explanations.set(key, {
        ref: template?.ref ?? parseRefKey(key),
        policyReason: '',
        clusters: [],
        held: `${heldWhy}: its last good output is kept`,
      });
    // Tried again on every sync until the collision ends: then it renders as its file says now, output or not.
    if (collided)
      changes.set(
        key,
        prevEntry?.clusters.length ? { ...prevEntry, blocked: true } : unplacedEntry(collided, 'blocked'),
      );
    // Said on its entry, for a later sync that does not read its files: only a render may decide what it writes.
    else if (prevEntry && !prevEntry.held) changes.set(key, { ...prevEntry, held: true });
    return true;
  }
  if (!template) {
    if (prevEntry && isDeletionProtected(prevEntry.labels)) {
      const ref = parseRefKey(key);
      explanations.set(key, {
        ref,
        policyReason: '',
        clusters: [],
        held: `it is labelled ${DELETION_PROTECTION_LABEL}: ${DELETION_PROTECTION_ALWAYS}, so its deletion is refused: its last output is kept`,
      });
      problems.push(deletionRefused(ref, { file: prevEntry.file, line: 1, column: 1 }));
      return true;
    }
    const guard = prevEntry ? protectedInNamespace(key, input.namespaceContents, model.templates) : undefined;
    if (prevEntry && guard) {
      const ref = parseRefKey(key);
      explanations.set(key, {
        ref,
        policyReason: '',
        clusters: [],
        held: `it still holds ${describeRef(parseRefKey(guard))}, whose deletion is refused: its last output is kept`,
      });
      problems.push(namespaceKept(ref, guard, { file: prevEntry.file, line: 1, column: 1 }));
      // Rendered again on every sync (as `awaiting`), so it goes once nothing protected is left in it.
      if (!prevEntry.awaiting) changes.set(key, { ...prevEntry, awaiting: true });
      return true;
    }
    if (prevEntry) changes.set(key, null);
    return true;
  }
  const taken = input.takenPaths?.get(bindingPath(template.ref));
  // The path is free again when the object holding it goes in this very render; it is not taken from its own holder.
  if (taken && taken !== key && !(affected.has(taken) && !model.templates.has(taken))) {
    if (!prevEntry?.clusters.length) changes.set(key, unplacedEntry(template, 'blocked'));
    explanations.set(key, {
      ref: template.ref,
      policyReason: '',
      clusters: [],
      held: `its output path ${bindingPath(template.ref)} holds ${describeRef(parseRefKey(taken))}: nothing is written for it`,
    });
    reportTakenPath(template, parseRefKey(taken), previousIndex.template(taken)?.file, problems);
    return true;
  }
  // A Service its MultiClusterService claims has no policy to lose; once the MultiClusterService goes, its last output
  // is kept like a deleted policy's (Karmada's retrieveService keeps the binding).
  const orphaned = multiClusterServiceFor(template, model)
    ? undefined
    : orphanedByPolicy(template, prevEntry, model.propagationPolicies);
  if (orphaned) {
    // A MultiClusterService still in Git but no longer CrossCluster lets go of its Service as a deleted one does
    // (Karmada's retrieveService keeps the binding; its webhook would not even let the types change).
    const mcsKey = multiClusterServiceKeyOf(template.ref);
    const stillThere =
      mcsKey !== undefined && orphaned.policy === describeRef(parseRefKey(mcsKey)) && model.templates.has(mcsKey);
    const why = stillThere ? 'no longer has type CrossCluster' : orphaned.remains ? 'no longer selects it' : 'is gone';
    explanations.set(key, {
      ref: template.ref,
      policyReason: '',
      clusters: [],
      held: `${orphaned.policy} ${orphaned.remains ? 'no longer selects it' : 'was deleted'}: its last output is kept`,
    });
    problems.push({
      ...atTemplate(
        template,
        `${describeRef(template.ref)} was placed by ${orphaned.policy}, which ${why}; it keeps running where it ran and is no longer updated`,
      ),
      code: 'POLICY_REMOVED',
      severity: 'warning',
      fix: orphaned.remains
        ? `make ${orphaned.policy} (or another policy) select it to manage it again, or delete the template to remove it from the clusters`
        : 'add a policy that selects it to manage it again, or delete the template to remove it from the clusters',
    });
    releaseClaim(key, template, input, write);
    return true;
  }
  const kept = keptAfterSkip(
    template,
    prevEntry,
    () => matchPolicy(template, model.propagationPolicies).status === 'matched',
  );
  if (kept) {
    explanations.set(key, { ref: template.ref, policyReason: '', clusters: [], held: kept });
    return true;
  }
  return false;
}

/**
 * A template whose binding or Work name Karmada's API server refuses: the detector (or the binding controller) retries
 * the create in vain, so nothing new reaches a member; its last output is kept until the template is renamed.
 */
function holdForName(key: string, template: Template, refused: RefusedName, out: RenderOutput<unknown>): void {
  out.explanations.set(key, {
    ref: template.ref,
    policyReason: '',
    clusters: [],
    held: `Karmada's API server refuses its ${refused.object} name ${refused.name}: its last output is kept`,
  });
  out.problems.push({
    ...atTemplate(
      template,
      `${describeRef(template.ref)}: Karmada names its ${refused.object} ${JSON.stringify(refused.name)}, which its API server refuses: ${refused.why}. Nothing is propagated`,
    ),
    code: 'INVALID_NAME',
    severity: 'error',
    fix: refused.fix,
  });
}

/**
 * The binding of a template whose policy let go of it, as Karmada's detector leaves it
 * (handleResourceTemplateAndBindingCleanup, cleanPPUnmatchedRBs): the same binding and result without that policy's
 * claim, written only if it had one.
 */
function releaseClaim(
  key: string,
  template: Template,
  input: RenderInput,
  write: (path: string, text: string) => void,
): void {
  const before = input.previousBindings.get(key);
  const released = before && withoutPolicyClaim(before);
  if (!released || released === before) return;
  const path = bindingPath(template.ref);
  const text = changedText(released, input.previousFiles.get(path), input.sourceCommit);
  if (text !== undefined) write(path, text);
}

/** A template whose Lua hook failed keeps its last output, with the error, until a commit fixes the script. */
function holdForHook(key: string, template: Template, err: LuaHookError, out: RenderOutput<unknown>): void {
  out.explanations.set(key, {
    ref: template.ref,
    policyReason: '',
    clusters: [],
    held: `the ${err.fn ?? 'Lua'} hook of its ResourceInterpreterCustomization failed: its last output is kept`,
  });
  out.problems.push(hookFailed(template, err, 'its last output is kept'));
}

function hookFailed(template: Template, err: LuaHookError, kept: string): Problem {
  const kind = `${template.ref.apiVersion} ${template.ref.kind}`;
  if (err instanceof BundledInterpreterError)
    return {
      ...atTemplate(
        template,
        `${describeRef(template.ref)}: ${err.fn ?? 'an operation'} of the interpreter Karmada bundles for ${kind} failed: ${err.message}; ${kept}`,
      ),
      code: 'INTERPRETER_FAILED',
      severity: 'error',
      fix: `give the template what Karmada's interpreter for ${kind} reads (for a workload, spec.replicas and a pod template), or replace that operation with your own ResourceInterpreterCustomization`,
    };
  return {
    ...atTemplate(
      template,
      `${describeRef(template.ref)}: the ${err.fn ?? 'Lua'} hook of its ResourceInterpreterCustomization failed: ${err.message}; ${kept}`,
    ),
    code: 'INTERPRETER_FAILED',
    severity: 'error',
    fix: `fix the script of ${kind} (spec.customizations luaScript), or the template if the script is right to refuse it`,
  };
}

/**
 * A binding whose policy names another scheduler: written as the detector builds it, its clusters whatever the
 * previous render left (none at first), as Karmada's default scheduler skips it and Flotilla runs no other.
 */
function leftToOtherScheduler(
  template: Template,
  claim: ClaimedBinding,
  scheduler: string,
  entryBase: IndexEntry,
  problems: Problem[],
): Placed {
  const policy = claim.policy.object;
  const clusters = claim.binding.spec.clusters ?? [];
  problems.push({
    ...(claim.policy.source ?? template.source),
    code: 'SCHEDULER_NOT_RUN',
    severity: 'warning',
    message: `${describePolicy(policy)} hands ${describeRef(template.ref)} to the scheduler ${JSON.stringify(scheduler)}: Flotilla runs only default-scheduler, so ${clusters.length > 0 ? 'it keeps the clusters it had' : 'nothing is placed'}`,
    fix: 'remove spec.schedulerName from the policy (or set it to default-scheduler) to have Flotilla place it',
  });
  return {
    template,
    binding: claim.binding,
    clusters,
    policy: claim.policy,
    evicting: [],
    entry: { ...entryBase, policy: claim.policyKey, clusters: clusters.map((c) => c.name).sort() },
    explanation: {
      ref: template.ref,
      policy: describePolicy(policy),
      policyReason: `${claim.reason}; scheduled by ${scheduler}, which Flotilla does not run`,
      clusters,
    },
  };
}

/**
 * Karmada's detector applies no policy whose dependentOverrides are not all there, and builds no ResourceBinding whose
 * policy's PriorityClass does not exist: the template waits, its last output kept, with a warning at the template (for
 * the PriorityClass, an error at the policy, gathered in `noPriorityClass`). Its index entry says `awaiting`: every
 * sync renders it again (the commit that adds what it waits for need not touch it), as Karmada's detector retries it.
 * A PriorityClass's policy has claimed it first (ClaimPolicyForObject comes before BuildResourceBinding): the entry
 * records that claim (`claim`), which sticks; a policy waiting for dependentOverrides claims nothing, and keeps only a
 * claim it already had.
 */
function waitForPolicy(
  key: string,
  p: Placed,
  waitsFor: NonNullable<Placed['waitsFor']>,
  input: RenderInput,
  out: RenderOutput<unknown>,
  write: (path: string, text: string) => void,
  noPriorityClass: Map<string, { policy: Located<PropagationPolicy>; priorityClass: string; templates: ObjectRef[] }>,
): void {
  const { policy } = waitsFor;
  const pKey = policyKey(policy.object);
  // A claim by another policy would have stuck had that policy still selected the template: it let go, and Karmada's
  // detector cleaned its claim off the binding before matching afresh; the waiting policy's claim is the template's,
  // which its binding gets only once it is built.
  const before = input.previousBindings.get(key);
  if (before && before.metadata.annotations?.['flotilla.io/policy'] !== pKey)
    releaseClaim(key, p.template, input, write);
  const waiting =
    'missing' in waitsFor
      ? `its dependentOverrides ${waitsFor.missing.join(', ')}`
      : waitsFor.priorityClass === ''
        ? 'a PriorityClass name'
        : `the PriorityClass ${waitsFor.priorityClass}`;
  out.explanations.set(key, {
    ref: p.template.ref,
    policy: describePolicy(policy.object),
    policyReason: p.explanation.policyReason,
    clusters: [],
    held: `${describePolicy(policy.object)} waits for ${waiting}: its last output is kept`,
  });
  // Listed as awaiting (its last entry kept otherwise), so every sync tries it again.
  const { claim: claimedBefore, ...previous } = input.previousIndex.template(key) ?? p.entry;
  const claim = !('missing' in waitsFor) || claimedBefore === pKey ? pKey : undefined;
  out.indexChanges.set(key, { ...previous, awaiting: true, ...(claim ? { claim } : {}) });
  if (!('missing' in waitsFor)) {
    const waiter = noPriorityClass.get(pKey);
    if (waiter) waiter.templates.push(p.template.ref);
    else noPriorityClass.set(pKey, { policy, priorityClass: waitsFor.priorityClass, templates: [p.template.ref] });
    return;
  }
  const { missing } = waitsFor;
  const kind = policy.object.kind === 'PropagationPolicy' ? 'OverridePolicy' : 'ClusterOverridePolicy';
  const where = policy.object.kind === 'PropagationPolicy' ? ` in namespace ${policy.object.metadata.namespace}` : '';
  const names = missing.join(', ');
  out.problems.push({
    ...atTemplate(
      p.template,
      `${describeRef(p.template.ref)} waits: ${describePolicy(policy.object)} depends on the ${kind} ${names}${where}, which the commit does not have`,
    ),
    code: 'DEPENDENT_OVERRIDES_MISSING',
    severity: 'warning',
    fix: `add the ${kind} ${names}${where}, or remove ${missing.length > 1 ? 'them' : 'it'} from spec.dependentOverrides of ${describePolicy(policy.object)}`,
  });
}

/**
 * One error per policy whose PriorityClass the commit lacks, at the policy, naming the templates it claimed: Karmada's
 * detector fails to build each one's binding (an ApplyPolicyFailed event on the template) and retries.
 */
function priorityClassProblem(waiter: {
  policy: Located<PropagationPolicy>;
  priorityClass: string;
  templates: ObjectRef[];
}): Problem {
  const { policy, priorityClass, templates } = waiter;
  const name = describePolicy(policy.object);
  const shown = templates.slice(0, NAMED_WAITERS).map(describeRef).join(', ');
  const named = templates.length > NAMED_WAITERS ? `${shown} and ${templates.length - NAMED_WAITERS} more` : shown;
  const one = templates.length === 1;
  const outcome = `Karmada's detector keeps the claim but builds no binding: ${one ? 'it keeps its' : 'each keeps its'} last output (none if never placed), and no other policy takes ${one ? 'it' : 'them'}`;
  return {
    ...policy.source,
    code: 'PRIORITY_CLASS_MISSING',
    severity: 'error',
    message:
      priorityClass === ''
        ? `${name} has spec.schedulePriority with an empty priorityClassName, which names no PriorityClass; it claims ${named}: ${outcome}`
        : `${name} gives its bindings the priority of the PriorityClass ${priorityClass}, which the commit does not have; it claims ${named}: ${outcome}`,
    fix:
      priorityClass === ''
        ? `set spec.schedulePriority.priorityClassName of ${name} to a PriorityClass in the repository, or remove spec.schedulePriority`
        : `add the PriorityClass ${priorityClass} (apiVersion scheduling.k8s.io/v1) to the repository, or change spec.schedulePriority.priorityClassName of ${name}, or remove spec.schedulePriority`,
    data: { policy: policyKey(policy.object), priorityClass, templates: templates.map(refKey) },
  };
}

/** How many of a policy's waiting templates a PRIORITY_CLASS_MISSING names; the rest are counted. */
const NAMED_WAITERS = 10;

/**
 * Step 3 over every affected template in key order: each cluster's Work manifest and the binding, counted against
 * the render's budget, then the removal of what no longer goes where it went. A path freed by one template and
 * taken by another in the same render (a PATH_COLLISION resolved) is written, whichever comes first.
 */
async function writeWorks<F>(
  keys: readonly string[],
  placed: Map<string, Placed>,
  input: RenderInput,
  keep: (text: string) => F,
  out: RenderOutput<F | string>,
  /** Bytes written before: the shrunk results'. */
  startBytes: number,
  turns: EventLoopTurns,
): Promise<void> {
  const { model, previousIndex } = input;
  const { edits, indexChanges: changes, problems, explanations, released } = out;
  const maxOutputBytes = input.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let outputBytes = startBytes;
  if (outputBytes > maxOutputBytes) out.overBudget = true;
  // Paths kept or rewritten by a template, which no other template's removal may take. Only a template with a previous
  // entry removes anything: without any (a cold render), a set of every path written would guard nothing.
  const written = keys.some((key) => previousIndex.template(key)) ? new Set<string>() : undefined;
  const remove = (path: string) => {
    if (!written?.has(path)) edits.set(path, null);
  };
  for (const key of keys) {
    if (turns.due()) await turns.give();
    const p = placed.get(key);
    // Written once, here: its binding and manifests go as soon as its files are out (a fleet's worth otherwise).
    placed.delete(key);
    const prevEntry = previousIndex.template(key);
    if (explanations.has(key)) continue; // held
    const ref = p?.template.ref ?? parseRefKey(key);
    const wanted = new Set([
      ...(p?.clusters.map((c) => c.name) ?? []),
      ...(p?.evicting ?? []),
      ...(p?.namespaceSync ?? []),
    ]);
    const bPath = bindingPath(ref);
    if (!p) {
      if (prevEntry && isMultiClusterServiceRef(ref)) remove(multiClusterServicePath(ref.namespace, ref.name));
      for (const cluster of prevEntry?.clusters ?? []) if (!wanted.has(cluster)) remove(manifestPath(cluster, ref));
      if (hadBinding(key, prevEntry, input)) remove(bPath);
      // Karmada keeps the member objects of a deleted template when its binding says so (execution_controller).
      if (input.previousBindings.get(key)?.spec.preserveResourcesOnDeletion) {
        for (const cluster of prevEntry?.clusters ?? []) released.set(cluster, [...(released.get(cluster) ?? []), key]);
      }
      continue;
    }
    // Texts first, counted against the render's budget, so a template over it is held whole before anything is written.
    // A template a render held keeps an older source's output: its files stand for nothing this render can trust.
    const unchangedOn =
      input.onlyClustersChanged && !prevEntry?.blocked && !prevEntry?.held
        ? clustersPlacedAsBefore(p, input.previousBindings.get(key), input.onlyClustersChanged)
        : NO_CLUSTERS;
    const writes: [path: string, text: string][] = [];
    let bytes = 0;
    // Its manifests share what no cluster changed, laid out once; nothing here modifies them between clusters.
    const parts: SharedParts = new Map();
    const stage = (path: string, obj: Record<string, unknown> | ResourceBinding, parsed?: unknown): boolean => {
      written?.add(path); // kept or rewritten by this template: no other template's removal may take it
      if (parsed !== undefined && sameAsParsed(obj, parsed)) return true;
      const text = changedText(obj, input.previousFiles.get(path), input.sourceCommit, parts);
      if (text === undefined) return true;
      bytes += Buffer.byteLength(text);
      if (outputBytes + bytes > maxOutputBytes) return false;
      writes.push([path, text]);
      return true;
    };
    let within = true;
    // Never propagated (its API group is Karmada's), but the applier, the agents and the status side read it.
    if (isMultiClusterService(p.template.manifest))
      within = stage(multiClusterServicePath(ref.namespace, ref.name), p.template.manifest);
    for (const target of p.clusters) {
      if (unchangedOn.has(target.name)) continue; // before anything per cluster: most clusters of most templates
      // Karmada updates the Work but does not apply it: the cluster keeps what it has, a new one gets nothing yet.
      if (dispatchingSuspended(p.binding?.spec.suspension, target.name)) continue;
      const cluster = model.clusters.get(target.name)?.object;
      if (!cluster) continue;
      const path = manifestPath(target.name, ref);
      if (isFederatedResourceQuota(p.template.manifest)) {
        const manifest = federatedQuotaManifest(p.template.manifest, ref, target.name, input.sourceCommit);
        if (manifest && !(within = stage(path, manifest))) break;
        continue;
      }
      let work: ReturnType<typeof renderWorkManifest>;
      try {
        // A scoped units' template: the cluster gets the variant of the unit whose scope selects it.
        work = p.template.variants
          ? renderWorkManifest(...onVariant(p, target, cluster, model), input.sourceCommit)
          : renderWorkManifest(p, target, cluster, model, input.sourceCommit);
      } catch (err) {
        if (!(err instanceof LuaHookError)) throw err;
        // Karmada's binding controller stops at the Work it cannot build: this cluster keeps its previous manifest.
        reportOnce(hookFailed(p.template, err, `its manifest for ${target.name} keeps its last version`), problems);
        continue;
      }
      for (const problem of work.problems) reportOnce(problem, problems);
      if (work.manifest === undefined) continue; // override failed: previous file for this cluster stays
      if (!(within = stage(path, work.manifest))) break;
    }
    if (within && p.binding) within = stage(bPath, p.binding, input.previousParsed?.get(bPath));
    if (!within) {
      out.overBudget = true;
      // Its last output is kept, made from an older source: said on its entry (as for any held template), so a later
      // render writes it on every cluster rather than keep a file it takes for this source's.
      // One with no output yet gets an entry that says so: raising the limit renders it with nothing pushed (syncRepo).
      if (!prevEntry) changes.set(key, unplacedEntry(p.template, 'held'));
      else if (!prevEntry.held) changes.set(key, { ...prevEntry, held: true });
      else changes.delete(key);
      explanations.set(key, {
        ...p.explanation,
        held: `its output would take this render past ${maxOutputBytes} bytes: its last output is kept`,
      });
      problems.push({
        ...atTemplate(
          p.template,
          `${describeRef(ref)} renders to more than the ${formatSize(maxOutputBytes - outputBytes)} left for ${p.clusters.length} cluster(s), past the ${formatSize(maxOutputBytes)} a commit may render; its last output is kept`,
        ),
        code: 'COMMIT_TOO_LARGE',
        severity: 'error',
        fix: `make the template smaller, or place it on fewer clusters; for a fleet this large, raise --max-output-bytes (now ${maxOutputBytes}) on flotilla run, render and sync`,
      });
      continue;
    }
    outputBytes += bytes;
    explanations.set(key, p.reasonless ? { ...p.explanation, clusters: [] } : p.explanation);
    // A cluster leaving the result loses its Work in Karmada (binding controller removeOrphanWorks), and that Work still
    // says preserveResourcesOnDeletion when the binding did: the member object stays, as for a deleted template.
    const preserved = input.previousBindings.get(key)?.spec.preserveResourcesOnDeletion === true;
    for (const cluster of prevEntry?.clusters ?? []) {
      if (wanted.has(cluster)) continue;
      remove(manifestPath(cluster, ref));
      if (preserved) released.set(cluster, [...(released.get(cluster) ?? []), key]);
    }
    for (const [path, text] of writes) edits.set(path, keep(text));
    if (!p.binding && hadBinding(key, prevEntry, input)) remove(bPath);
  }
}

/**
 * Whether the previous render wrote a binding for the template: its own (a policy placed it) or the one a workload
 * that propagates its dependencies attached to it (no policy of its own; Karmada's dependencies distributor).
 */
function hadBinding(key: string, prevEntry: IndexEntry | undefined, input: RenderInput): boolean {
  return Boolean(prevEntry?.policy) || input.previousBindings.has(key);
}

/**
 * The hpaScaleTargetMarker between placement and the binding controller: a workload a propagated HPA scales gets the
 * retain-replicas label on every member's manifest, and both index entries record the pair so an incremental render
 * that touches one of them reads the other (outputs/loadSource.ts). loadSource puts the HPAs of an affected target
 * and the target of an affected HPA in the render, so the pairs among `placed` are all there are.
 */
function markHpaTargets(placed: Map<string, Placed>, heldScalers: ReadonlyMap<string, string>): void {
  const hpas = [...placed.values()].filter((p) => scaleTargetOf(p.template) !== undefined);
  if (hpas.length === 0 && heldScalers.size === 0) return;
  const claimed = new Set(hpas.filter((p) => p.policy !== undefined).map((p) => refKey(p.template.ref)));
  const scaled = scaleTargets(
    hpas.map((p) => p.template),
    (hpa) => claimed.has(refKey(hpa.ref)),
  );
  for (const [hpa, target] of heldScalers) scaled.set(target, [...(scaled.get(target) ?? []), hpa].sort());
  for (const p of hpas) {
    const target = scaleTargetOf(p.template)!;
    if (claimed.has(refKey(p.template.ref))) p.entry = { ...p.entry, scaleTarget: target };
  }
  for (const [target, by] of scaled) {
    const p = placed.get(target);
    if (!p) continue;
    p.template = markScaleTarget(p.template);
    p.entry = { ...p.entry, scaledBy: by };
    p.explanation.scaledBy = by;
  }
}

function snapshotOf(model: ConfigModel): Snapshot {
  const clusters = [...model.clusters.values()]
    .map((c) => c.object)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  let byName: Map<string, Cluster> | undefined;
  return {
    clusters,
    byName: () => (byName ??= new Map(clusters.map((c) => [c.metadata.name, c]))),
    rebalancers: model.rebalancers.map((r) => r.object),
  };
}

/**
 * One template through the per-template controllers: a Namespace goes everywhere (namespace sync); otherwise the
 * detector claims it, the taint manager evicts from its previous result, the scheduler places it and the graceful
 * eviction controller ends the tasks that are due.
 */
function place(
  template: Template,
  model: ConfigModel,
  snapshot: Snapshot,
  previous: ResourceBinding | undefined,
  claimedBy: string | undefined,
  problems: Problem[],
  failover: FailoverInput | undefined,
  events: FailoverEvent[],
  clusterReasons: boolean | 'moved' | undefined,
): Placed {
  const reported = problems.length;
  let placed = placeOnce(template, model, snapshot, previous, claimedBy, problems, failover, events, clusterReasons);
  // Karmada's scheduler does not read tolerationSeconds (its TaintToleration filter), but its taint manager acts on
  // every binding on a NoExecute-tainted cluster within seconds (taint_manager.go requeues them): a result placed on
  // a cluster whose toleration has run out is evicted from it at once, and placed again without it. Each pass adds an
  // eviction task, so a pass per cluster is the most there can be.
  for (let pass = 0; failover && placed.binding && pass < snapshot.clusters.length; pass++) {
    if (!placedOnDueTaint(placed, snapshot, failover.now)) break;
    problems.length = reported; // the last pass's problems are the result's
    placed = placeOnce(
      template,
      model,
      snapshot,
      placed.binding,
      claimedBy,
      problems,
      failover,
      events,
      clusterReasons,
    );
  }
  return placed;
}

/** Whether the taint manager would evict this result from one of its clusters now, by its policy's tolerations. */
function placedOnDueTaint(placed: Placed, snapshot: Snapshot, now: Date): boolean {
  const tainted = noExecuteTainted(snapshot);
  if (tainted.size === 0) return false; // most renders: asked for every template, answered once
  const tolerations = placed.policy?.object.spec.placement?.clusterTolerations;
  return placed.clusters.some((target) => {
    const taints = tainted.get(target.name);
    return taints !== undefined && taintEviction(taints, tolerations, now).evict;
  });
}

/** The clusters with a NoExecute taint, with their taints. */
const noExecuteCache = new WeakMap<Snapshot, ReadonlyMap<string, readonly Taint[]>>();
function noExecuteTainted(snapshot: Snapshot): ReadonlyMap<string, readonly Taint[]> {
  let found = noExecuteCache.get(snapshot);
  if (!found) {
    const tainted = new Map<string, readonly Taint[]>();
    for (const c of snapshot.clusters)
      if (c.spec.taints?.some((t) => t.effect === 'NoExecute')) tainted.set(c.metadata.name, c.spec.taints);
    noExecuteCache.set(snapshot, (found = tainted));
  }
  return found;
}

function placeOnce(
  template: Template,
  model: ConfigModel,
  snapshot: Snapshot,
  previous: ResourceBinding | undefined,
  /** The index's `claim`: a policy claimed it without building its binding. */
  claimedBy: string | undefined,
  problems: Problem[],
  failover: FailoverInput | undefined,
  events: FailoverEvent[],
  clusterReasons: boolean | 'moved' | undefined,
): Placed {
  const entryBase: IndexEntry = {
    file: template.source.file,
    clusters: [],
    ...(Object.keys(template.labels).length > 0 ? { labels: template.labels } : {}),
  };
  // A scoped units' template goes only where a scope selects: the others are no candidates, as for one more affinity.
  const candidates = template.variants ? snapshot.clusters.filter((c) => scopeSelects(template, c)) : snapshot.clusters;

  if (isMultiClusterService(template.manifest)) {
    if (isCrossCluster(template.manifest)) reportUnknownClusters(template, template.manifest, model, problems);
    else reportTypeNotServed(template, template.manifest, problems);
  }

  if (isFederatedResourceQuota(template.manifest)) return placeQuota(template, template.manifest, snapshot, entryBase);

  const ns = autoPropagatedNamespace(template);
  if (ns.propagate) {
    const targets = candidates.map((c) => ({ name: c.metadata.name, replicas: 0 }));
    return {
      template,
      clusters: targets,
      entry: { ...entryBase, clusters: targets.map((t) => t.name) },
      evicting: [],
      explanation: {
        ref: template.ref,
        policyReason: template.variants
          ? `${ns.reason}, here only to the clusters the clusterAffinity of ${unitFolders(template, model)} selects`
          : ns.reason,
        clusters: targets,
      },
    };
  }

  const mcs = multiClusterServiceFor(template, model);
  const claim = mcs
    ? claimForMultiClusterService(template, mcs, model, previous)
    : claimTemplate(template, model, previous, claimedBy);
  if (claim.status !== 'claimed') {
    return {
      template,
      clusters: [],
      entry: entryBase,
      evicting: [],
      explanation: { ref: template.ref, policyReason: claim.reason, clusters: [] },
    };
  }
  const policy = claim.policy.object;
  // Claimed, but nothing is placed this time: it waits for something in the commit, or its binding cannot exist.
  const unplaced = (why: Pick<Placed, 'waitsFor' | 'refusedName'>): Placed => ({
    template,
    clusters: [],
    entry: { ...entryBase, policy: claim.policyKey },
    evicting: [],
    explanation: { ref: template.ref, policyReason: claim.reason, clusters: [] },
    ...why,
  });
  const missing = missingDependentOverrides(policy, model.overridePolicies);
  if (missing.length > 0) return unplaced({ waitsFor: { policy: claim.policy, missing } });
  if (claim.priorityClassMissing !== undefined)
    return unplaced({ waitsFor: { policy: claim.policy, priorityClass: claim.priorityClassMissing } });
  const refusedName = refusedNameOf(template);
  if (refusedName) return unplaced({ refusedName });
  // Karmada's default scheduler never picks up a binding handed to another scheduler: it keeps what it has.
  const scheduler = schedulerOf(policy.spec);
  if (scheduler !== DEFAULT_SCHEDULER) return leftToOtherScheduler(template, claim, scheduler, entryBase, problems);
  const tainted: EvictedResult =
    failover && previous
      ? evictTaintedClusters(previous, policy, snapshot.byName(), failover.now)
      : { clusters: previous?.spec.clusters ?? [], tasks: previous?.spec.gracefulEvictionTasks ?? [], evictions: [] };
  // The application failover controller acts on the binding the taint manager left, as both edit the same binding.
  const application = applicationFailoverFor(policy, template, claim.custom);
  const items = application && previous ? failover?.observed.get(refKey(template.ref)) : undefined;
  const failed =
    application && failover && items && items.length > 0
      ? evictFailedApplications(tainted, items, application, claim.binding.kind, failover.now)
      : undefined;
  const evicted: EvictedResult = failed ? { ...tainted, clusters: failed.clusters, tasks: failed.tasks } : tainted;
  const leftOut = candidates === snapshot.clusters ? undefined : leftOutByScope(template, snapshot, model);
  // Without per-cluster reasons, a successful schedule need not explain its candidates: withoutClusterReasons drops them.
  const first = scheduleBinding(
    template,
    claim,
    previous,
    evicted,
    candidates,
    snapshot.rebalancers,
    leftOut,
    clusterReasons === false ? false : undefined,
  );
  for (const e of evicted.evictions) events.push({ type: 'evicted', ref: template.ref, result: first.targets, ...e });
  for (const f of failed?.failures ?? [])
    events.push({ type: 'failed-over', ref: template.ref, result: first.targets, ...f });
  const clock =
    failover && evicted.tasks.length > 0
      ? {
          now: failover.now,
          observed: failover.observed.get(refKey(template.ref)),
          gracePeriodSeconds: failover.gracePeriodSeconds,
        }
      : undefined;
  const evictedNow =
    evicted.evictions.length > 0 || (failed?.failures.length ?? 0) > 0
      ? new Set([...evicted.evictions.map((e) => e.cluster), ...(failed?.failures ?? []).map((f) => f.cluster)])
      : NONE_EVICTED;
  const placedNow = first.result.status === 'Scheduled' || first.result.status === 'Unchanged';
  const synced = syncEvictionTasks(evicted.tasks, evictedNow, first.targets, clock, placedNow);
  // Ending a task changes the binding's spec, and Karmada's scheduler schedules it again at once: a Duplicated or
  // non-workload binding takes back the cluster the task kept out, if nothing else keeps it out now.
  const again =
    synced.ended.length > 0
      ? scheduleBinding(
          template,
          claim,
          first.binding,
          { clusters: first.targets, tasks: synced.tasks },
          candidates,
          snapshot.rebalancers,
          leftOut,
          clusterReasons === false ? false : undefined,
        )
      : undefined;
  const scheduled =
    again && again.result.status !== 'Unchanged'
      ? { ...again, ...(first.rescheduledBy ? { rescheduledBy: first.rescheduledBy } : {}) }
      : first;
  if (scheduled.problem)
    problems.push(
      // Nothing fits where the scope lets it: the scope may be what is too narrow.
      scheduled.problem.code === 'NO_CLUSTER_FITS' && candidates !== snapshot.clusters
        ? {
            ...scheduled.problem,
            fix: `widen the clusterAffinity of ${unitFolders(template, model)} (flotilla-unit.yaml) or the placement of ${describePolicy(policy)}, or register a matching cluster under clusters/`,
          }
        : scheduled.problem,
    );
  const { targets, result } = scheduled;
  for (const end of synced.ended)
    events.push({
      type: 'released',
      ref: template.ref,
      cluster: end.task.fromCluster,
      why: end.why,
      result: first.targets,
      ...(targets.some((t) => t.name === end.task.fromCluster) ? { placedAgain: true as const } : {}),
    });
  // A cluster no longer registered keeps its task (Karmada's lasts until it times out or the new clusters are healthy)
  // but holds nothing: its execution space went with its Cluster, Works and all, and no Work is made for a task.
  const evicting = synced.evicting.filter((name) => model.clusters.has(name));
  const binding =
    synced.tasks.length > 0
      ? { ...scheduled.binding, spec: { ...scheduled.binding.spec, gracefulEvictionTasks: synced.tasks } }
      : scheduled.binding;
  // A task made in this render waits for the next one (syncEvictionTasks), which must look at it whatever its status
  // says then: the replacements may already be healthy, and nothing on the status branch need move to say so.
  const evictionEnd =
    synced.tasks.length === 0
      ? undefined
      : failover && evictedNow.size > 0
        ? failover.now.getTime()
        : (earliestGraceEnd(synced.tasks, failover?.gracePeriodSeconds) ?? null);
  // Karmada's dependencies distributor reconciles ResourceBindings only: a ClusterResourceBinding says propagateDeps
  // as its policy does, and nothing reads its dependencies.
  const distributes = policy.spec.propagateDeps === true && binding.kind === 'ResourceBinding';
  const recorded = dependenciesOf(template, distributes, claim.custom);
  const deps = [...new Set(recorded)];
  const held = [...targets.map((t) => t.name), ...evicting].sort();
  const replicas = deps.length > 0 ? replicasOn(held, targets) : undefined;
  return {
    template,
    binding: distributes ? withDependencies(binding, template, recorded, claim.custom) : binding,
    clusters: targets,
    policy: claim.policy,
    evicting,
    ...(evictionEnd !== undefined ? { evictionEnd } : {}),
    entry: {
      ...entryBase,
      policy: claim.policyKey,
      clusters: held,
      ...(deps.length > 0 ? { deps } : {}),
      ...(deps.length > 0 && binding.spec.conflictResolution === 'Overwrite' ? { overwrite: true as const } : {}),
      ...(deps.length > 0 && binding.spec.preserveResourcesOnDeletion ? { preserve: true as const } : {}),
      ...(replicas ? { replicas } : {}),
      ...(evicting.length > 0 ? { evicting } : {}),
      ...suspendedOn(binding, held),
      ...(scheduled.waiting ? { waiting: scheduled.waiting } : {}),
      // Also without a previous result: the reconciler watches these templates' health from their first render on.
      ...(application ? { applicationFailover: { tolerationSeconds: application.tolerationSeconds } } : {}),
    },
    explanation: {
      ref: template.ref,
      policy: describePolicy(policy),
      policyReason: claim.reason,
      // A result kept as it was lists its clusters only: the scope's still says why the others get nothing.
      schedule:
        leftOut && result.status === 'Unchanged'
          ? { ...result, explanation: [...leftOut, ...result.explanation] }
          : result,
      clusters: targets,
      ...(scheduled.rescheduledBy ? { rescheduledBy: scheduled.rescheduledBy } : {}),
      ...(template.autoscaledBy ? { autoscaledBy: template.autoscaledBy } : {}),
    },
  };
}

/**
 * Karmada's federated-resource-quota-sync controller, not its detector: every registered cluster a static assignment
 * names gets the quota's ResourceQuota; one not registered gets it once it is (no error: Karmada says nothing either).
 */
function placeQuota(
  template: Template,
  quota: FederatedResourceQuota,
  snapshot: Snapshot,
  entryBase: IndexEntry,
): Placed {
  const named = assignedClusters(quota);
  const registered = new Set(snapshot.clusters.map((c) => c.metadata.name));
  const targets = snapshot.clusters
    .filter((c) => named.includes(c.metadata.name))
    .map((c) => ({ name: c.metadata.name, replicas: 0 }));
  const unregistered = named.filter((c) => !registered.has(c)).sort();
  return {
    template,
    clusters: targets,
    entry: {
      ...entryBase,
      clusters: targets.map((t) => t.name),
      ...(unregistered.length > 0 ? { unregisteredAssignments: unregistered } : {}),
      quotaOverall: Object.fromEntries(
        Object.keys(quota.spec.overall)
          .sort()
          .map((n) => [n, String(canonicalQuantity(quota.spec.overall[n], false))]),
      ),
    },
    evicting: [],
    explanation: {
      ref: template.ref,
      policyReason: `FederatedResourceQuota ${template.ref.namespace}/${template.ref.name} puts it on each cluster its staticAssignments name (Karmada's federated-resource-quota-sync controller)${unregistered.length > 0 ? `; ${unregistered.join(', ')} not registered` : ''}`,
      clusters: targets,
    },
  };
}

const NONE_EVICTED: ReadonlySet<string> = new Set();

/**
 * A Namespace a policy places after its skip-auto-propagation label: the clusters still holding namespace sync's copy
 * stay in its entry (so a later render, or its deletion, still finds them) and keep that copy as it is.
 */
function withNamespaceSyncCopies(p: Placed, previous: IndexEntry | undefined, model: ConfigModel): Placed {
  // Asked only of a skipped Namespace's clusters: every other template returns before the first question.
  const placedOn = (c: string) => p.evicting.includes(c) || p.clusters.some((t) => t.name === c);
  const kept = namespaceSyncCopies(p.template, previous, placedOn, (c) => model.clusters.has(c));
  if (kept.length === 0) return p;
  return {
    ...p,
    namespaceSync: kept,
    entry: { ...p.entry, clusters: [...p.entry.clusters, ...kept].sort(), namespaceSync: kept },
    explanation: {
      ...p.explanation,
      policyReason: `${p.explanation.policyReason}; ${kept.join(', ')} keep${kept.length === 1 ? 's' : ''} the copy namespace sync made before the skip-auto-propagation label, unchanged (Karmada's binding controller takes over only the Works of the clusters its binding targets)`,
    },
  };
}

/** The index's `suspended`: the clusters it is held on where its policy suspends dispatching. */
function suspendedOn(binding: ResourceBinding, held: readonly string[]): { suspended?: string[] } {
  const suspension = binding.spec.suspension;
  if (!suspension) return {};
  const suspended = held.filter((c) => dispatchingSuspended(suspension, c));
  return suspended.length > 0 ? { suspended } : {};
}

/**
 * The policy's failover.application when Karmada's application failover controller would act on the binding
 * (bindingFilter): its kind's health is interpreted, and propagateDeps is on (validation asks for it).
 */
function applicationFailoverFor(
  policy: PropagationPolicy,
  template: Template,
  custom: Customizations | undefined,
): ApplicationFailover | undefined {
  if (policy.spec.propagateDeps !== true || !interpretsHealth(template.manifest, custom)) return undefined;
  return applicationFailoverOf(policy.spec);
}

/**
 * What the binding controller makes a cluster's manifest of when scoped units output the template: the cluster's own
 * variant, and the replicas it runs. Divided, its share of the scheduled replicas (the first variant's), written into
 * its variant as into any template; otherwise the variant's own count, as if its differences from the first variant
 * were an OverridePolicy of that cluster, which Karmada applies after revising the replicas (unless a FederatedHPA
 * decides them).
 */
function onVariant(
  p: Placed,
  target: TargetCluster,
  cluster: Cluster,
  model: ConfigModel,
): [Placed, TargetCluster, Cluster, ConfigModel] {
  const template = templateOn(p.template, cluster);
  if (template === p.template) return [p, target, cluster, model];
  const divided = p.policy?.object.spec.placement?.replicaScheduling?.replicaSchedulingType === 'Divided';
  // A FederatedHPA's decision gives the replicas every cluster runs, whichever variant it gets.
  const own =
    divided || p.template.autoscaledBy !== undefined
      ? target
      : {
          ...target,
          replicas: interpretReplicas(template.manifest, customizationFor(interpretersOf(model), template.manifest))
            .replicas,
        };
  return [{ ...p, template }, own, cluster, model];
}

/** The scoped units a template's variants come from, in order: `unit apps/production`, `units apps/production, apps/staging`. */
function unitFolders(template: Template, model: ConfigModel): string {
  const folders = variantUnits(template).map((marker) => model.units?.get(marker)?.dir ?? marker);
  return `${folders.length === 1 ? 'unit' : 'units'} ${folders.join(', ')}`;
}

/** A scoped units' template's units, in order, each with the clusters (of those it goes to) that get its variant. */
function unitEntries(template: Template, clusters: readonly string[], snapshot: Snapshot): UnitVariantEntry[] {
  const variants = template.variants ?? [];
  const byUnit = new Map(variants.map((v) => [v, [] as string[]]));
  for (const name of clusters) {
    const cluster = snapshot.byName().get(name);
    const v = cluster && variantOn(template, cluster);
    if (v) byUnit.get(v)!.push(name);
  }
  return variants.map((v) => ({ file: v.unit, clusters: byUnit.get(v)! }));
}

/** The registered clusters no scope of the template's units selects, as the scheduler reports a filtered cluster. */
function leftOutByScope(template: Template, snapshot: Snapshot, model: ConfigModel): SchedulingRequest['excluded'] {
  const units = unitFolders(template, model);
  return snapshot.clusters
    .filter((c) => !scopeSelects(template, c))
    .map((c) => ({
      cluster: c.metadata.name,
      outcome: 'filtered',
      plugin: 'ClusterAffinity',
      reason: NO_AFFINITY_MATCH,
      detail: `left out by the scope (clusterAffinity in flotilla-unit.yaml) of ${units}`,
    }));
}

/** Whether Karmada's API server would refuse the template's binding or Work names, worked out once per template. */
const refusedNames = new WeakMap<Template, RefusedName | null>();
function refusedNameOf(template: Template): RefusedName | undefined {
  let known = refusedNames.get(template);
  if (known === undefined) {
    known = refusedBindingName(template.ref.kind, template.ref.name, template.ref.namespace) ?? null;
    refusedNames.set(template, known);
  }
  return known ?? undefined;
}

/** Whether a placement keeps its per-cluster reasons, by RenderInput.clusterReasons. */
function keepsReasons(
  wanted: boolean | 'moved' | undefined,
  placed: Placed,
  previous: ResourceBinding | undefined,
): boolean {
  if (wanted !== 'moved') return wanted !== false;
  const before = previous?.spec.clusters;
  if (!before || before.length !== placed.clusters.length) return true;
  const replicas = new Map(before.map((c) => [c.name, c.replicas ?? 0]));
  return placed.clusters.some((c) => replicas.get(c.name) !== (c.replicas ?? 0));
}

/** A scheduling result's summary, its per-cluster reasons left out (RenderInput.clusterReasons). */
function withoutClusterReasons(
  schedule: NonNullable<TemplateExplanation['schedule']>,
): TemplateExplanation['schedule'] {
  const { status, message, detail, affinityName } = schedule;
  return {
    status,
    message,
    ...(detail !== undefined ? { detail } : {}),
    explanation: [],
    ...(affinityName !== undefined ? { affinityName } : {}),
  };
}

/** Karmada's ClusterNotFound event, at the name in the file: the rest of the MultiClusterService still works. */
function reportUnknownClusters(
  template: Template,
  mcs: MultiClusterService,
  model: ConfigModel,
  problems: Problem[],
): void {
  const registered = [...model.clusters.keys()];
  for (const { field, index, name } of unknownClusters(mcs, new Set(registered))) {
    const at = `spec.${field}[${index}].name`;
    const role = field === 'providerClusters' ? 'provider' : 'consumer';
    const guess = suggestName(name, registered);
    problems.push({
      ...(template.fieldSources?.[at] ?? template.source),
      code: 'UNKNOWN_CLUSTER',
      severity: 'warning',
      message: `${role} cluster ${name} of ${describeRef(template.ref)} is not registered: nothing goes to it or comes from it${guess ? `; did you mean ${guess}?` : ''}`,
      fix: guess
        ? `rename it to ${guess}, or register ${name} under clusters/`
        : `name one of ${registered.join(', ') || '(no cluster is registered)'} in ${at}, or register ${name} under clusters/`,
    });
  }
}

/**
 * Karmada's own controllers act on a MultiClusterService only when its types hold CrossCluster
 * (helper.MultiClusterServiceCrossClusterEnabled); a LoadBalancer one is left to a cloud provider's multi-cluster
 * controller (karmada-io/multicluster-cloud-provider), which is the only reader of its spec.ports. Flotilla runs no
 * such controller, so the file would do nothing without a word: said here, at its types.
 */
function reportTypeNotServed(template: Template, mcs: MultiClusterService, problems: Problem[]): void {
  const types = mcs.spec?.types ?? [];
  const service = describeRef({
    kind: 'Service',
    namespace: template.ref.namespace,
    name: template.ref.name,
  });
  problems.push({
    ...(template.fieldSources?.['spec.types'] ?? template.source),
    code: 'TYPE_NOT_SERVED',
    severity: 'warning',
    message: `${describeRef(template.ref)} has types [${types.join(', ')}]: Karmada's own controllers act only on CrossCluster${types.includes('LoadBalancer') ? " and leave LoadBalancer to a cloud provider's multi-cluster controller, which Flotilla does not run" : ''}; here it has no effect: no load balancer, no endpoints dispatched, and ${service} is placed by its propagation policy like any template`,
    fix: 'use types: [CrossCluster] to reach the Service from other clusters, or run a multi-cluster cloud provider against the members and keep this file as its input',
  });
}

function isMultiClusterServiceRef(ref: ObjectRef): boolean {
  return ref.apiVersion === NETWORKING_API_VERSION && ref.kind === MULTI_CLUSTER_SERVICE_KIND;
}

/** A refused override rule is reported once per policy rule and template, not once per cluster. */
function reportOnce(problem: Problem, problems: Problem[]): void {
  if (problems.some((p) => p.message === problem.message && p.file === problem.file && p.line === problem.line)) return;
  problems.push(problem);
}

/**
 * The index entry of a template held with nothing rendered: by a PATH_COLLISION (blocked: listed, so every sync tries
 * it again), or for the bytes one render may write (held: tried again when the limit is raised).
 */
function unplacedEntry(template: Template, why: 'blocked' | 'held'): IndexEntry {
  return {
    file: template.source.file,
    clusters: [],
    ...(Object.keys(template.labels).length > 0 ? { labels: template.labels } : {}),
    [why]: true,
  };
}

/** PATH_COLLISION at the new template and at the file of the object whose output holds the path (line 1: it was not read). */
function reportTakenPath(
  template: Template,
  other: ObjectRef,
  otherFile: string | undefined,
  problems: Problem[],
): void {
  const path = bindingPath(template.ref);
  const message = (here: ObjectRef, there: ObjectRef, where: string) =>
    `${describeRef(here)} (${here.apiVersion}) and ${describeRef(there)} (${there.apiVersion})${where} would both be written to ${path}; both keep their last output`;
  const fix = 'rename one of the two objects (or drop one): Flotilla cannot tell their output apart';
  problems.push({
    ...template.source,
    code: 'PATH_COLLISION',
    severity: 'error',
    message: message(template.ref, other, otherFile ? ` at ${otherFile}` : ''),
    fix,
  });
  if (otherFile)
    problems.push({
      file: otherFile,
      line: 1,
      column: 1,
      code: 'PATH_COLLISION',
      severity: 'error',
      message: message(other, template.ref, ` at ${template.source.file}:${template.source.line}`),
      fix,
    });
}

const NO_CLUSTERS: ReadonlySet<string> = new Set();

/**
 * In a commit that changed only some clusters' registrations, the clusters whose manifest of this template cannot
 * have changed: a manifest is made of the template, its policy, the override policies, that cluster's object and the
 * replicas that cluster gets, and only the last two can move. So a cluster not changed that keeps its replicas keeps
 * its file, even when the placement moved elsewhere (a cluster joined or left, replicas went from one to another),
 * and the render costs what it writes. That holds for a dependency attached for its dependents too: the clusters
 * they add carry their snapshots' replicas, which only a binding with a placement of its own revises a manifest to,
 * and the manifests take none of the labels they add to its binding. A
 * Divided Job's completions are split over the whole result, so it keeps its files only when the placement is as before.
 * Whatever the last render made of such a cluster (its manifest, or none when an override failed) is what this one
 * would make, so the file is not even looked up.
 */
function clustersPlacedAsBefore(
  p: Placed,
  previous: ResourceBinding | undefined,
  changedClusters: ReadonlySet<string>,
): ReadonlySet<string> {
  if (!previous || !p.binding) return NO_CLUSTERS;
  const before = workClusters(previous);
  if (p.template.ref.kind === 'Job' && !placedAsBefore(p, previous)) return NO_CLUSTERS;
  const replicasBefore = new Map(before.map((c) => [c.name, c.replicas]));
  // An attached binding has no placement: its Works are never revised to a count, whatever replicas they carry.
  const counts = p.binding.spec.placement !== undefined;
  const kept = new Set<string>();
  for (const c of p.clusters)
    if (
      !changedClusters.has(c.name) &&
      replicasBefore.has(c.name) &&
      (!counts || replicasBefore.get(c.name) === c.replicas)
    )
      kept.add(c.name);
  return kept;
}

/** Same target clusters with the same replicas as the previous binding, and no clusters added for dependents. */
function placedAsBefore(p: Placed, previous: ResourceBinding | undefined): boolean {
  const before = previous?.spec.clusters;
  const now = p.binding?.spec.clusters;
  if (!before || !now || p.explanation.requiredBy || previous.spec.requiredBy) return false;
  if (now.length !== p.clusters.length || now.length !== before.length) return false;
  return now.every(
    (c, i) =>
      c.name === before[i]!.name &&
      c.replicas === before[i]!.replicas &&
      p.clusters[i]!.name === c.name &&
      p.clusters[i]!.replicas === c.replicas,
  );
}

export type { ClusterExplanation };

/** The replicas a result gives each of the clusters (0 where it gives none), or undefined when all are 0. */
function replicasOn(clusters: readonly string[], result: readonly TargetCluster[]): number[] | undefined {
  const on = new Map(result.map((c) => [c.name, c.replicas ?? 0]));
  const replicas = clusters.map((c) => on.get(c) ?? 0);
  return replicas.some((r) => r > 0) ? replicas : undefined;
}

/**
 * A propagateDeps binding records what its workload drags along, as Karmada's dependencies distributor does
 * (recordDependencies): the JSON of the references, "null" when there are none, for a kind whose dependencies are
 * interpreted at all.
 */
function withDependencies(
  binding: ResourceBinding,
  template: Template,
  deps: readonly string[],
  custom: Customizations | undefined,
): ResourceBinding {
  if (!hasDependencyHook(template.ref.apiVersion, template.ref.kind, custom)) return binding;
  const references = deps.map((key) => {
    const ref = parseRefKey(key);
    return {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      name: ref.name,
    };
  });
  return {
    ...binding,
    metadata: {
      ...binding.metadata,
      annotations: {
        ...binding.metadata.annotations,
        [DEPENDENCIES_ANNOTATION]: references.length > 0 ? JSON.stringify(references) : 'null',
      },
    },
  };
}
