// The files of the status branch: their paths and shapes, read by the reconciler, blame, `flotilla get` and other
// tools, written by statuses/buildStatusFiles.ts. Part of the branch contract (docs/BRANCHES.md, docs/schemas/).
import type { ClusterStatus, Condition, Taint } from '../../api/cluster.ts';
import type { Health } from '../../api/conditions.ts';
import type { ObjectRef } from '../../api/kinds.ts';
import { manifestPath } from '../rendered/outputPaths.ts';

type Obj = Record<string, unknown>;

/** One member's line in a template's status: Karmada's AggregatedStatusItem. */
export interface AggregatedStatusItem {
  clusterName: string;
  applied: boolean;
  health: Health;
  /**
   * Why it is not applied; absent when applied, so the text does not churn between "created" and "unchanged", and on a
   * target that has reported nothing yet (isAwaitingApply). The one applied entry with a message is a held deletion
   * (isHeldDeletion).
   */
  message?: string;
  /** The reflected status of the member object. */
  status?: Obj;
  /**
   * While health is Unhealthy: since when the writers have seen it so without a break (RFC 3339). Karmada's
   * application failover controller keeps this moment in memory; the status branch keeps it here, as the writer is
   * not one long-lived process, so a PropagationPolicy's failover.application can count its tolerationSeconds.
   */
  unhealthySince?: string;
}

/**
 * An entry for an object the cluster should no longer have, whose deletion the prune guard holds (still applied, with
 * the note why). Karmada's Work for it would be deleting, and assembleWorkStatus skips deleting Works: such an entry
 * counts neither for FullyApplied nor for the aggregated status, and a binding's aggregatedStatus leaves it out.
 */
export function isHeldDeletion(item: AggregatedStatusItem): boolean {
  return item.applied && item.message !== undefined;
}

/**
 * An entry for a cluster the binding targets that has reported nothing for the object yet: Karmada's Work there has no
 * Applied condition, and assembleWorkStatus lists it not applied, health Unknown, with no message. It is no failure.
 */
export function isAwaitingApply(item: AggregatedStatusItem): boolean {
  return !item.applied && item.message === undefined;
}

/** An AggregatedStatusItem as Karmada's API writes it: the JSON tags of its Go type. */
export interface KarmadaStatusItem {
  clusterName: string;
  status?: Obj;
  /** omitempty: only ever true. */
  applied?: true;
  appliedMessage?: string;
  health?: Health;
}

/**
 * The message of the Applied condition Karmada's execution controller sets on a Work that failed to apply: one
 * manifest per Work, none of it applied, then the reason as the item holds it (the member's own words where it gave
 * them, as Karmada quotes the error; Flotilla's otherwise).
 */
export function appliedFailedMessage(item: Pick<AggregatedStatusItem, 'message'>): string {
  return `Failed to apply all manifests (0/1): ${item.message ?? ''}`;
}

/**
 * The item in Karmada's form, as a ResourceBinding's status.aggregatedStatus holds it (assembleWorkStatus): applied
 * left out when false, and only then an appliedMessage, the Work's Applied condition message (none before the Work
 * has one). Flotilla's own fields (unhealthySince, the note of a held prune) are not part of it.
 */
export function asKarmadaStatusItem(item: AggregatedStatusItem): KarmadaStatusItem {
  return {
    clusterName: item.clusterName,
    ...(item.status ? { status: item.status } : {}),
    ...(item.applied
      ? { applied: true as const }
      : isAwaitingApply(item)
        ? {}
        : { appliedMessage: appliedFailedMessage(item) }),
    ...(item.health ? { health: item.health } : {}),
  };
}

/** The FullyApplied condition of a template status (Karmada's binding condition). */
export interface FullyAppliedCondition {
  type: 'FullyApplied';
  status: 'True' | 'False';
  reason: string;
  message: string;
  /**
   * When the status last changed (RFC 3339), as meta.SetStatusCondition keeps it: a new reason or message leaves it.
   * Absent in files written before Flotilla recorded it.
   */
  lastTransitionTime?: string;
}

/**
 * An observation that disagrees with the stored Ready condition and has not yet lasted its threshold: the status
 * it saw and since when it has seen it. Kept on the status branch because the writer is not one long-lived process.
 */
export interface PendingReady {
  status: Condition['status'];
  since: string;
}

/**
 * applied/<cluster>.yaml: the rendered commit a cluster last applied. It moves only when the cluster's folder
 * (its tree oid) or the number of objects that failed changes, so a render that leaves a cluster alone makes no
 * status commit; blame compares folderTree with the rendered head to tell whether the cluster is up to date.
 */
export interface AppliedRecord {
  cluster: string;
  renderedCommit: string;
  sourceCommit?: string;
  /** Tree oid of clusters/<cluster>/ in that commit; null when the commit has no folder for it. */
  folderTree: string | null;
  /** Objects whose apply failed or conflicted in that pass. */
  failed: number;
}

export function appliedPath(cluster: string): string {
  return `applied/${cluster}.yaml`;
}

/**
 * A cluster file of the status branch: the Cluster's status, plus in spec.taints only the taints Flotilla's
 * controllers manage (automatic not-ready/unreachable, ClusterTaintPolicy), each with the time it was added. Git's
 * spec.taints stay the user's; the scheduler sees both. A Ready observation still inside its damping threshold is
 * kept in an annotation, so the next pass (or another process) continues the count.
 */
export interface ClusterStatusFile {
  apiVersion: string;
  kind: 'Cluster';
  /**
   * creationTimestamp: when a status writer first saw a Pull cluster registered that no agent had reported on (the
   * start of Karmada's startup grace period); such a file has no status until the agent posts one.
   */
  metadata: { name: string; annotations?: Record<string, string>; creationTimestamp?: string };
  spec?: { taints: Taint[] };
  status?: ClusterStatus;
}

export const PENDING_READY_ANNOTATION = 'flotilla.io/ready-observed';
/** Annotation of a cluster file: the last time its agent posted status (RFC 3339, second precision). */
export const HEARTBEAT_ANNOTATION = 'flotilla.io/last-heartbeat';

/** The status of one template as kept on the status branch. */
export interface TemplateStatusFile {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  status?: Record<string, unknown>;
  conditions: FullyAppliedCondition[];
  aggregatedStatus: AggregatedStatusItem[];
}

export function clusterStatusPath(cluster: string): string {
  return `clusters/${cluster}.yaml`;
}

/** templates/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml: the rendered layout without the cluster. */
export function templateStatusPath(ref: ObjectRef): string {
  return `templates/${manifestPath('x', ref).slice('clusters/x/'.length)}`;
}

/** `False since 2026-01-02T03:04:05Z`, the annotation's value; undefined when absent or not in that form. */
export function parsePending(text: string | undefined): PendingReady | undefined {
  const m = /^(True|False|Unknown) since (\S+)$/.exec(text ?? '');
  return m ? { status: m[1] as PendingReady['status'], since: m[2]! } : undefined;
}
