import {
  appliedPath,
  clusterStatusPath,
  parsePending,
  PENDING_READY_ANNOTATION,
  templateStatusPath,
  type AppliedRecord,
  type ClusterStatusFile,
  type TemplateStatusFile,
} from '../branches/status/statusFiles.ts';
import { stringify } from 'yaml';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { Cluster, ClusterStatus, Condition } from '../api/cluster.ts';
import type { ClusterTaintPolicy } from '../api/policy.ts';
import { buildManagedTaints } from '../taints/clusterTaints.ts';
import { dampReadyCondition, type ReadyThresholds } from './dampReadyCondition.ts';
import type { PendingReady } from '../branches/status/statusFiles.ts';
import { formatTime } from '../time/formatTime.ts';
import { CLUSTER_API_VERSION, type ObjectRef } from '../api/kinds.ts';
import type { ClusterDelivery } from '../deliveries/applyRendered.ts';
import { inventoryPath } from '../branches/status/inventory.ts';
import {
  endpointsPath,
  serializeExportedEndpoints,
  type ExportedService,
} from '../branches/status/exportedEndpoints.ts';
import { identityKey, serializeInventory } from '../branches/status/inventory.ts';
import { aggregateStatus, fullyApplied } from '../interpreters/aggregateStatus.ts';
import {
  isAwaitingApply,
  isHeldDeletion,
  type AggregatedStatusItem,
  type FullyAppliedCondition,
} from '../branches/status/statusFiles.ts';
import { interpretHealth } from './interpretHealth.ts';
import { federatedQuotaStatusPathOf } from '../branches/status/federatedQuotaStatus.ts';
import { federatedQuotaStatus } from './federatedQuotaStatus.ts';
import { reflectStatus } from './reflectStatus.ts';
import { COMPLETE_API_ENABLEMENTS, NEVER_UPDATED_REASON, STATUS_UNKNOWN_REASON } from '../api/conditions.ts';
import { HEARTBEAT_ANNOTATION } from '../branches/status/statusFiles.ts';
import { isSecret } from '../interpreters/isSecret.ts';
import { preferredRef } from '../api/servedApis.ts';
import {
  customAggregateStatus,
  customHealth,
  customizationFor,
  customReflectStatus,
  BUILT_IN_INTERPRETERS,
  type InterpreterSet,
} from '../interpreters/customizations.ts';

/** What one writer reports for one member cluster. The writer owns exactly these clusters' parts of the branch. */
export interface ClusterReport {
  cluster: string;
  /** Collected Cluster.status; absent when not collected this pass. */
  status?: ClusterStatus;
  /** The apply pass; absent when nothing was applied this pass. */
  delivery?: ClusterDelivery;
  /** Which rendered commit that pass applied (set by writeStatus from its renderedCommit); blame reads it. */
  applied?: AppliedRecord;
  /**
   * A status pass: objects of the cluster's inventory as the member shows them now, nothing applied. Only the health
   * and status of their entries follow; whether they are applied stays what the last apply said.
   */
  observed?: ObservedObject[];
  /**
   * The EndpointSlices of every Service the cluster exports (its ServiceExports), collected this pass: the whole
   * of its endpoints file, which goes when this is empty. Absent: not collected, the file stays as it is.
   */
  exports?: ExportedService[];
}

/** One object read back from a member, without applying it. */
export interface ObservedObject {
  ref: ObjectRef;
  live: Record<string, unknown>;
}

/** What the cluster files need beyond the reports: Git's Cluster objects and ClusterTaintPolicies, and the damping. */
export interface ClusterFileOptions {
  /** Git's Clusters by name (labels, region... for targetClusters); a cluster not listed matches by name only. */
  clusters?: ReadonlyMap<string, Cluster>;
  taintPolicies?: readonly ClusterTaintPolicy[];
  thresholds?: ReadyThresholds;
  /**
   * Record a heartbeat (HEARTBEAT_ANNOTATION) on the files of the reported clusters, a new one when the file changes
   * anyway or the last is this old (ms): what a Pull agent does, so the reconciler can tell it stopped. Absent: none.
   */
  heartbeatMs?: number;
}

/**
 * The clusters a template's binding targets (its result, requiredBy, graceful eviction tasks: the rendered index's
 * clusters), which FullyApplied is judged against; undefined when the render does not know the object as a template.
 */
export type TargetsOf = (ref: ObjectRef) => ReadonlySet<string> | undefined;

/**
 * The spec.overall of the FederatedResourceQuota that made this ResourceQuota (the rendered index's quotaOverall);
 * undefined for any object no quota made.
 */
export type QuotaOverallOf = (ref: ObjectRef) => Readonly<Record<string, string>> | undefined;

/** Every status-branch path these reports may rewrite: the writer reads exactly these before building edits. */
export function statusPathsOf(reports: readonly ClusterReport[]): string[] {
  const paths = new Set<string>();
  for (const r of reports) {
    if (r.status) paths.add(clusterStatusPath(r.cluster));
    if (r.applied) paths.add(appliedPath(r.cluster));
    if (r.exports) paths.add(endpointsPath(r.cluster));
    const addTemplate = (ref: ObjectRef) => {
      paths.add(templateStatusPath(ref));
      const quota = federatedQuotaStatusPathOf(ref);
      if (quota) paths.add(quota);
    };
    for (const o of r.observed ?? []) addTemplate(o.ref);
    if (!r.delivery) continue;
    paths.add(inventoryPath(r.cluster));
    for (const res of r.delivery.results) if (res.ref.kind && res.ref.name) addTemplate(res.ref);
    for (const ref of r.delivery.previousInventory) addTemplate(ref);
  }
  return [...paths].sort();
}

/**
 * The new bytes of the status files these reports own, merged into what the branch holds now (`existing`, keyed by
 * path; absent = no such file). Pure. In a template file each writer replaces only its own clusters' entries and the
 * aggregate is recomputed from all entries, so two writers for different clusters never undo each other.
 * Returns only real changes: path → new text, or null to delete. Nothing here depends on the clock except a Ready
 * condition's and the FullyApplied condition's lastTransitionTime and an item's unhealthySince, which move only when
 * Ready, FullyApplied or the health changes.
 */
export function buildStatusFiles(
  existing: ReadonlyMap<string, string>,
  reports: readonly ClusterReport[],
  now: Date,
  interpreters: InterpreterSet = BUILT_IN_INTERPRETERS,
  clusterOptions: ClusterFileOptions = {},
  targetsOf: TargetsOf = () => undefined,
  quotaOverallOf: QuotaOverallOf = () => undefined,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const put = (path: string, text: string | null) => {
    if ((existing.get(path) ?? null) !== text) out.set(path, text);
  };

  for (const r of reports) {
    if (r.exports) put(endpointsPath(r.cluster), serializeExportedEndpoints(r.cluster, r.exports));
    if (r.status)
      put(
        clusterStatusPath(r.cluster),
        renderClusterFile(r.cluster, r.status, existing.get(clusterStatusPath(r.cluster)), now, clusterOptions),
      );
    if (r.delivery) {
      const { appliedSource, prune } = r.delivery;
      put(
        inventoryPath(r.cluster),
        serializeInventory(r.delivery.inventory, {
          ...(appliedSource ? { sourceCommit: appliedSource } : {}),
          ...(prune?.held.length ? { held: prune.held } : {}),
          ...(r.delivery.pending ? { pending: r.delivery.pending } : {}),
        }),
      );
    }
    if (r.applied) {
      const before = existing.has(appliedPath(r.cluster))
        ? (parseYamlValue(existing.get(appliedPath(r.cluster))!) as AppliedRecord | null)
        : null;
      if (before?.folderTree !== r.applied.folderTree || before.failed !== r.applied.failed)
        put(appliedPath(r.cluster), render(r.applied));
    }
  }

  // Template path → (cluster → its new entry, or null to drop it). Refs kept to write the file header.
  // unreflected: clusters where reflecting the applied object failed (a declared statusReflection hook or the native rule).
  // unanswered: clusters that did not answer the apply, with the entry to write only when they have none yet.
  const entries = new Map<
    string,
    {
      ref: ObjectRef;
      byCluster: Map<string, AggregatedStatusItem | null>;
      live: Map<string, Record<string, unknown>>;
      unreflected: Set<string>;
      unanswered: Map<string, AggregatedStatusItem>;
    }
  >();
  const slot = (seen: ObjectRef) => {
    const ref = preferredRef(seen);
    const path = templateStatusPath(ref);
    let e = entries.get(path);
    if (!e)
      entries.set(
        path,
        (e = { ref, byCluster: new Map(), live: new Map(), unreflected: new Set(), unanswered: new Map() }),
      );
    return e;
  };
  for (const r of reports) for (const o of r.observed ?? []) slot(o.ref).live.set(r.cluster, o.live);
  for (const r of reports) {
    if (!r.delivery) continue;
    const current = new Set<string>();
    for (const res of r.delivery.results) {
      if (res.prune && res.action === 'held') {
        // Still on the member, waiting for a human: its status says so instead of vanishing.
        current.add(identityKey(res.ref));
        slot(res.ref).byCluster.set(r.cluster, {
          clusterName: r.cluster,
          applied: true,
          health: 'Unknown',
          message: res.message,
        });
        continue;
      }
      if (res.prune || !res.ref.kind || !res.ref.name) continue;
      current.add(identityKey(res.ref));
      if (res.suspended) {
        // Read, not applied: only an applied entry's status and health follow the object, and an object gone keeps
        // its last (Karmada re-creates nothing for a suspended Work, and its work status controller skips NotFound).
        if (res.live) slot(res.ref).live.set(r.cluster, res.live);
        continue;
      }
      if (res.unreachable) {
        // Nothing reached the member: what it last reported stands, as a Work on a member Karmada cannot reach keeps
        // its Applied condition and manifest status. Without a report yet, the object is not applied there: on a
        // cluster not Ready, Karmada's execution controller never tried, so its Work has no Applied condition and
        // the entry no message; on one still Ready, its apply failed on the connection, and says so as Karmada's
        // Work does: client-go's error for the request that got no answer.
        slot(res.ref).unanswered.set(r.cluster, {
          clusterName: r.cluster,
          applied: false,
          health: 'Unknown',
          ...(r.delivery.notReady ? {} : { message: res.error ?? `${res.action}: ${res.message}` }),
        });
        continue;
      }
      const applied =
        res.action === 'created' ||
        res.action === 'configured' ||
        res.action === 'drift-repaired' ||
        res.action === 'unchanged';
      // A declared hook (InterpreterCustomization) replaces the built-in one for its kind.
      const ref = preferredRef(res.ref);
      const custom = customizationFor(interpreters, ref);
      const live = res.live ? seenAs(res.live, ref) : undefined;
      const declared = applied && custom && live ? customReflectStatus(custom, live) : undefined;
      const status = declared !== undefined ? declared : applied ? reflectStatus(live) : undefined;
      // A hook or the native rule failed: Karmada leaves the Work's manifest status as it was.
      if (status === null) slot(res.ref).unreflected.add(r.cluster);
      slot(res.ref).byCluster.set(r.cluster, {
        clusterName: r.cluster,
        applied,
        health: applied
          ? ((custom && live ? customHealth(custom, live) : undefined) ?? interpretHealth(live))
          : 'Unknown',
        // Why, in Karmada's words where the member gave them: what its Work's Applied condition says after "Failed to
        // apply all manifests (0/1): ".
        ...(applied ? {} : { message: res.error ?? `${res.action}: ${res.message}` }),
        ...(status ? { status } : {}),
      });
    }
    // Objects that left this cluster (pruned, or the folder no longer names them) leave its status too.
    for (const ref of [
      ...r.delivery.previousInventory,
      ...r.delivery.results.filter((x) => x.prune).map((x) => x.ref),
    ]) {
      if (!current.has(identityKey(ref)) && !slot(ref).byCluster.has(r.cluster))
        slot(ref).byCluster.set(r.cluster, null);
    }
  }

  for (const [path, { ref, byCluster, live, unreflected, unanswered }] of entries) {
    const previous = existing.has(path) ? (parseYamlValue(existing.get(path)!) as TemplateStatusFile | null) : null;
    const items = new Map<string, AggregatedStatusItem>();
    for (const item of previous?.aggregatedStatus ?? []) items.set(item.clusterName, item);
    for (const [cluster, item] of byCluster) {
      if (item) items.set(cluster, item);
      else items.delete(cluster);
    }
    for (const [cluster, item] of unanswered) {
      const had = items.get(cluster);
      if (!had || isAwaitingApply(had)) items.set(cluster, item);
    }
    // A failed reflection updates nothing (Karmada's reflectStatus returns before touching the Work): what the member
    // last reflected stands, and without one the entry is applied with no status and Unknown health, as
    // assembleWorkStatus makes an applied Work without manifest status.
    for (const cluster of unreflected) {
      const item = items.get(cluster);
      const before = previous?.aggregatedStatus?.find((i) => i.clusterName === cluster);
      if (!item) continue;
      const { status: _unset, ...rest } = item;
      items.set(
        cluster,
        before?.applied
          ? { ...rest, health: before.health, ...(before.status ? { status: before.status } : {}) }
          : { ...rest, health: 'Unknown' },
      );
    }
    const custom = customizationFor(interpreters, ref);
    for (const [cluster, seen] of live) {
      const object = seenAs(seen, ref);
      // Only what the last apply recorded as applied: a failed or missing entry is the apply's to write.
      const item = items.get(cluster);
      if (!item?.applied || byCluster.has(cluster)) continue;
      const declared = custom ? customReflectStatus(custom, object) : undefined;
      const status = declared !== undefined ? declared : reflectStatus(object);
      if (status === null) continue;
      const { status: _old, ...rest } = item;
      items.set(cluster, {
        ...rest,
        health: (custom ? customHealth(custom, object) : undefined) ?? interpretHealth(object),
        ...(status ? { status } : {}),
      });
    }
    // The file goes with the template's binding. A binding that still exists with no member reporting (scheduled
    // to no cluster) keeps it: Karmada's status controller writes such a binding's empty aggregatedStatus and its
    // FullyApplied False.
    const targets = targetsOf(ref);
    // Karmada's binding controller makes a Work for every target at once, and assembleWorkStatus lists each: one no
    // member has reported on yet as not applied, health Unknown; a cluster no longer targeted has no Work to list.
    if (targets) {
      for (const [cluster, item] of items) if (!targets.has(cluster) && isAwaitingApply(item)) items.delete(cluster);
      for (const cluster of targets)
        if (!items.has(cluster)) items.set(cluster, { clusterName: cluster, applied: false, health: 'Unknown' });
    }
    // A quota's status follows its ResourceQuotas' entries; an object no quota made (any longer) has none.
    const quotaPath = federatedQuotaStatusPathOf(ref);
    const overall = quotaPath ? quotaOverallOf(ref) : undefined;
    if (quotaPath && !overall) put(quotaPath, null);
    if (items.size === 0 && !targets) {
      put(path, null);
      if (quotaPath) put(quotaPath, null);
      continue;
    }
    const secret = isSecret(ref);
    // A Secret's entries keep no status, even one an older Flotilla wrote: the next write scrubs it from the branch.
    const before = new Map((previous?.aggregatedStatus ?? []).map((i) => [i.clusterName, i]));
    const list = [...items.values()]
      .map((i) => unhealthyFrom(before.get(i.clusterName), i, now))
      .map((i) => (secret && i.status ? withoutStatus(i) : i))
      .sort((a, b) => (a.clusterName < b.clusterName ? -1 : a.clusterName > b.clusterName ? 1 : 0));
    // What Karmada aggregates: the Works not being deleted.
    const current = list.filter((i) => !isHeldDeletion(i));
    const aggregated = secret
      ? undefined
      : ((custom
          ? customAggregateStatus(custom, current, {
              apiVersion: ref.apiVersion,
              kind: ref.kind,
              metadata: ref.namespace ? { name: ref.name, namespace: ref.namespace } : { name: ref.name },
              ...(previous?.status ? { status: previous.status } : {}),
            })
          : undefined) ?? aggregateStatus(ref.apiVersion, ref.kind, current, previous?.status));
    if (quotaPath && overall)
      put(quotaPath, render(federatedQuotaStatus({ namespace: ref.namespace!, name: ref.name }, overall, current)));
    const file: TemplateStatusFile = {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: ref.namespace ? { name: ref.name, namespace: ref.namespace } : { name: ref.name },
      ...(aggregated ? { status: aggregated } : {}),
      conditions: [fullyAppliedSince(fullyApplied(current, targets), previous?.conditions, now)],
      aggregatedStatus: list,
    };
    put(path, render(file));
  }
  return out;
}

/** A FederatedResourceQuota the rendered commit makes: its ResourceQuota's ref and its spec.overall (quotaOverall). */
export interface RenderedQuota {
  ref: ObjectRef;
  overall: Readonly<Record<string, string>>;
}

/**
 * The status files of the rendered commit's quotas whose file is missing or says another overall, as Karmada's status
 * controller writes a quota's status when the quota is created or changed (it reconciles on the quota itself, not only
 * on its Works): overall at once, the clusters from what the ResourceQuota's template status file holds, none while no
 * member has reported. `existing` holds each quota's status file and template status file, and `known`, the quota
 * status files the branch had: those no quota makes any longer are deleted. Pure; only real changes.
 */
export function renderedQuotaStatusFiles(
  existing: ReadonlyMap<string, string>,
  quotas: readonly RenderedQuota[],
  known: readonly string[],
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const made = new Set<string>();
  for (const { ref, overall } of quotas) {
    const path = federatedQuotaStatusPathOf(ref);
    if (!path) continue;
    made.add(path);
    const template = existing.get(templateStatusPath(ref));
    const items = template ? ((parseYamlValue(template) as TemplateStatusFile | null)?.aggregatedStatus ?? []) : [];
    const text = render(
      federatedQuotaStatus(
        { namespace: ref.namespace, name: ref.name },
        { ...overall },
        items.filter((i) => !isHeldDeletion(i)),
      ),
    );
    if (existing.get(path) !== text) out.set(path, text);
  }
  for (const path of known) if (!made.has(path) && existing.has(path)) out.set(path, null);
  return out;
}

/**
 * A member object read as its template's version. Karmada's Work carries the template at that version, so the object
 * its status controller reflects and judges is at it too; a member here holds the version written in Git, whose
 * fields the native rules read are the same (an HPA's currentReplicas and desiredReplicas in v1 and v2).
 */
function seenAs(live: Record<string, unknown>, ref: ObjectRef): Record<string, unknown> {
  return live.apiVersion === ref.apiVersion ? live : { ...live, apiVersion: ref.apiVersion };
}

/**
 * The condition with the lastTransitionTime Karmada's meta.SetStatusCondition gives it: kept while the status stays
 * the same, now when it changes or is new.
 */
function fullyAppliedSince(
  condition: FullyAppliedCondition,
  previous: readonly FullyAppliedCondition[] | undefined,
  now: Date,
): FullyAppliedCondition {
  const before = previous?.find((c) => c.type === condition.type);
  const since =
    before?.status === condition.status && before.lastTransitionTime ? before.lastTransitionTime : formatTime(now);
  return { ...condition, lastTransitionTime: since };
}

function withoutStatus({ status: _dropped, ...rest }: AggregatedStatusItem): AggregatedStatusItem {
  return rest;
}

/**
 * The item with unhealthySince carried over while it stays Unhealthy, set to now when it turns Unhealthy, and dropped
 * otherwise: Healthy or Unknown restarts the count, as Karmada's application failover controller forgets a cluster
 * whose workload it sees Healthy or Unknown.
 */
function unhealthyFrom(
  before: AggregatedStatusItem | undefined,
  item: AggregatedStatusItem,
  now: Date,
): AggregatedStatusItem {
  const { unhealthySince: kept, ...rest } = item;
  if (item.health !== 'Unhealthy') return rest;
  const since = kept ?? (before?.health === 'Unhealthy' ? before.unhealthySince : undefined) ?? formatTime(now);
  return { ...rest, unhealthySince: since };
}

function renderClusterFile(
  name: string,
  collected: ClusterStatus,
  previousText: string | undefined,
  now: Date,
  opts: ClusterFileOptions,
): string {
  const previous = previousText ? (parseYamlValue(previousText) as ClusterStatusFile | null) : null;
  let pending: PendingReady | undefined;
  const observed = (collected.conditions ?? []).map((c) => {
    if (c.type !== 'Ready') return c;
    const recorded = previous?.status?.conditions?.find((p) => p.type === 'Ready');
    // Unknown from a missing heartbeat, or from no status ever posted, was never observed by a prober: a fresh
    // observation holds at once, as a restarted Karmada agent's does (its threshold cache starts empty).
    const stored =
      recorded?.reason === STATUS_UNKNOWN_REASON || recorded?.reason === NEVER_UPDATED_REASON ? undefined : recorded;
    const damped = dampReadyCondition(
      stored,
      parsePending(previous?.metadata.annotations?.[PENDING_READY_ANNOTATION]),
      c,
      now,
      opts.thresholds,
    );
    pending = damped.pending;
    return damped.ready;
  });
  // Karmada's syncClusterStatus collects the rest only when the Ready it writes is True: while the success threshold
  // holds a recovered member at not ready, what was collected waits, and the last details stay.
  const ready = observed.find((c) => c.type === 'Ready');
  const takesDetails = !ready || ready.status === 'True';
  const conditions = takesDetails ? observed : [ready];
  // Unreachable: only the Ready condition is known; the rest stays as last seen (Karmada keeps it too). A full
  // collection (it carries CompleteAPIEnablements) replaces the rest, a field it lacks included, as Karmada's
  // updateStatusIfNeeded writes the four fields it collected.
  const full = takesDetails && observed.some((c) => c.type === COMPLETE_API_ENABLEMENTS);
  const status: ClusterStatus = full
    ? { ...collected }
    : { ...(previous?.status ?? {}), ...(takesDetails ? collected : {}) };
  // Conditions this pass did not collect stay as they were (Karmada's updateStatusCondition sets one condition, the
  // others kept): an unreachable member keeps its CompleteAPIEnablements, as it keeps its apiEnablements. Each
  // collected one is set as meta.SetStatusCondition sets it, in syncClusterStatus's order (CompleteAPIEnablements,
  // then Ready): in its place when the type is there, else at the end, so a fresh cluster lists Ready last.
  const collectedInOrder = [
    ...conditions.filter((c) => c.type !== 'Ready'),
    ...conditions.filter((c) => c.type === 'Ready'),
  ];
  status.conditions = setConditions(
    previous?.status?.conditions ?? [],
    collectedInOrder.map((c) => withTransitionTime(c, previous?.status?.conditions, now)),
  );
  const ordered: ClusterStatus = {};
  for (const k of ['conditions', 'kubernetesVersion', 'apiEnablements', 'nodeSummary', 'resourceSummary'] as const) {
    if (status[k] !== undefined) (ordered as Record<string, unknown>)[k] = status[k];
  }
  const cluster = opts.clusters?.get(name) ?? {
    apiVersion: CLUSTER_API_VERSION,
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push' },
  };
  const taints = buildManagedTaints(
    previous?.spec?.taints ?? [],
    ordered.conditions ?? [],
    opts.taintPolicies ?? [],
    cluster,
    formatTime(now),
  );
  // When a status writer first saw it registered (a Pull cluster before its agent posted): kept, as Kubernetes keeps it.
  const created = previous?.metadata.creationTimestamp;
  const build = (heartbeat: string | undefined): string => {
    const annotations = {
      ...(heartbeat ? { [HEARTBEAT_ANNOTATION]: heartbeat } : {}),
      ...(pending ? { [PENDING_READY_ANNOTATION]: `${pending.status} since ${pending.since}` } : {}),
    };
    const file: ClusterStatusFile = {
      apiVersion: CLUSTER_API_VERSION,
      kind: 'Cluster',
      metadata: {
        name,
        ...(created ? { creationTimestamp: created } : {}),
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      },
      ...(taints.length > 0 ? { spec: { taints } } : {}),
      status: ordered,
    };
    return render(file);
  };
  if (opts.heartbeatMs === undefined) return build(undefined);
  // A heartbeat younger than the interval is kept when nothing else changed: no commit on every pass.
  const last = previous?.metadata.annotations?.[HEARTBEAT_ANNOTATION];
  if (last && now.getTime() - Date.parse(last) < opts.heartbeatMs) {
    const kept = build(last);
    if (kept === previousText) return kept;
  }
  return build(formatTime(now));
}

/** meta.SetStatusCondition's placement: each condition replaces the one of its type where it stands, or is appended. */
function setConditions(current: readonly Condition[], set: readonly Condition[]): Condition[] {
  const out = [...current];
  for (const c of set) {
    const at = out.findIndex((p) => p.type === c.type);
    if (at >= 0) out[at] = c;
    else out.push(c);
  }
  return out;
}

/** A condition keeps its lastTransitionTime while its status stays the same. */
function withTransitionTime(c: Condition, previous: Condition[] | undefined, now: Date): Condition {
  const before = previous?.find((p) => p.type === c.type);
  const time =
    before && before.status === c.status && before.lastTransitionTime ? before.lastTransitionTime : formatTime(now);
  return {
    type: c.type,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
    lastTransitionTime: time,
  };
}

function render(value: unknown): string {
  return stringify(value, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false });
}
