// autoscalers/<namespace>/<name>.yaml on the status branch: a FederatedHPA's decision, as the status side made it
// from the members' pod metrics (statuses/decideFederatedHpas.ts). The render reads it from the status commit it
// pins (its Cluster-Status trailer) and uses desiredReplicas as the workload's replicas, so `verify` replays it.
// The file changes only when the decision does: metrics that move without changing the count make no commit.
// Part of the branch contract (docs/BRANCHES.md, docs/schemas/status-autoscaler.schema.json).
import { stringify } from 'yaml';
import { refKey } from '../../api/kinds.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';
import { listFolderFiles } from '../../commits/listFolderFiles.ts';
import { readBlobs } from '../../commits/readBlobs.ts';
import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import type { GitRepo } from '../../commits/types.ts';
import type { HpaCondition } from '../../api/conditions.ts';
import { parseBranchFile } from '../../errors/parseBranchFile.ts';
import {
  parseSyncedReplicas,
  SYNCED_REPLICAS_FOLDER,
  syncedReplicasKey,
  type SyncedReplicasFile,
} from './syncedReplicas.ts';

export const FEDERATED_HPA_API_VERSION = 'autoscaling.karmada.io/v1alpha1';
export const AUTOSCALERS_FOLDER = 'autoscalers/';

/** One metric as the decision saw it (Karmada's MetricStatus for a Resource metric, flattened). */
export interface SeenMetric {
  /** `cpu` */
  resource: string;
  /** The container a ContainerResource metric reads; absent for a Resource metric (all containers). */
  container?: string;
  /** Target average utilization, percent of request (a Utilization target). */
  targetUtilization?: number;
  /** Current average utilization over the pods with a metric, percent of request (a Utilization target). */
  currentUtilization?: number;
  /** Target average usage per pod, as the FederatedHPA gives it (an AverageValue target), e.g. `50m`. */
  targetAverageValue?: string;
  /** Average usage per pod with a metric, e.g. `150m`. */
  currentAverageValue: string;
  /** Pods counted, by cluster: those of the workload in its Ready target clusters. */
  pods: Record<string, number>;
}

export interface AutoscalerDecisionFile {
  apiVersion: typeof FEDERATED_HPA_API_VERSION;
  kind: 'FederatedHPA';
  metadata: { namespace: string; name: string };
  scaleTargetRef: { apiVersion: string; kind: string; name: string };
  /** The replicas the render gives the workload (before the scheduler divides them). */
  desiredReplicas: number;
  /** The workload's replicas the decision started from. */
  currentReplicas: number;
  /**
   * Git's spec.replicas of the workload when decided (1 when Git gives none): desiredReplicas holds only while Git
   * still says this. Absent in files written before it was recorded: they hold whatever Git says.
   */
  gitReplicas?: number;
  /** Karmada's rescale reason ("cpu resource utilization (percentage of request) above target"), or why it held. */
  reason: string;
  /** The AbleToScale and ScalingLimited condition reasons Karmada would set. */
  ableToScale: string;
  scalingLimited?: string;
  metrics: SeenMetric[];
  /** When a decision last changed the replicas (Karmada's status.lastScaleTime), RFC 3339; absent until one does. */
  lastScaleTime?: string;
  /** The scale events within the longest policy period, kept so a restarted writer limits the next step alike. */
  scaleUpEvents?: { time: string; change: number }[];
  scaleDownEvents?: { time: string; change: number }[];
  /** AbleToScale, ScalingActive and ScalingLimited as Karmada's controller last set them. */
  conditions?: HpaCondition[];
}

/**
 * The AbleToScale reason of a decision made while the source had no such workload: it decides nothing (the workload
 * added again starts from its own count, as a new template does in Karmada).
 */
export const MISSING_TARGET = 'FailedGetScaleTargetRef';

export function autoscalerPath(namespace: string, name: string): string {
  return `${AUTOSCALERS_FOLDER}${namespace}/${name}.yaml`;
}

/** The refKey of the workload a decision scales (same namespace as the FederatedHPA). */
export function decisionTargetKey(d: Pick<AutoscalerDecisionFile, 'metadata' | 'scaleTargetRef'>): string {
  const { apiVersion, kind, name } = d.scaleTargetRef;
  return refKey({ apiVersion, kind, namespace: d.metadata.namespace, name });
}

export function serializeAutoscalerDecision(d: AutoscalerDecisionFile): string {
  return stringify(d, GO_YAML_STRINGIFY_OPTIONS);
}

export function parseAutoscalerDecision(text: string): AutoscalerDecisionFile {
  const v = parseYamlValue(text) as Partial<AutoscalerDecisionFile> | null;
  if (
    !v ||
    v.kind !== 'FederatedHPA' ||
    typeof v.metadata?.namespace !== 'string' ||
    typeof v.metadata?.name !== 'string' ||
    typeof v.scaleTargetRef?.kind !== 'string' ||
    typeof v.scaleTargetRef?.name !== 'string' ||
    !Number.isInteger(v.desiredReplicas)
  )
    throw new Error('expected a FederatedHPA decision with metadata, scaleTargetRef and an integer desiredReplicas');
  return v as AutoscalerDecisionFile;
}

/** Every decision in a status commit (by path); empty when there is none. */
export function readAutoscalerDecisions(
  repo: GitRepo,
  statusCommit: string | null,
): Promise<Map<string, AutoscalerDecisionFile>> {
  return readYamlFolder(repo, statusCommit, AUTOSCALERS_FOLDER, parseAutoscalerDecision);
}

/** The .yaml files under `folder` in a status commit, by path. */
async function yamlFilesIn(repo: GitRepo, statusCommit: string, folder: string): Promise<Map<string, { oid: string }>> {
  const files = await listFolderFiles(repo, (await readCommitInfo(repo, statusCommit)).tree, folder);
  return new Map([...files].filter(([p]) => p.endsWith('.yaml')));
}

/** The YAML files of one folder of a status commit, each parsed (a corrupt one named by parseBranchFile), by path. */
async function readYamlFolder<T>(
  repo: GitRepo,
  statusCommit: string | null,
  folder: string,
  parse: (text: string) => T,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  if (!statusCommit) return out;
  const files = await yamlFilesIn(repo, statusCommit, folder);
  const paths = [...files.keys()].sort();
  const blobs = await readBlobs(
    repo,
    paths.map((p) => files.get(p)!.oid),
  );
  const decoder = new TextDecoder();
  for (const path of paths)
    out.set(
      path,
      parseBranchFile(statusCommit, path, () => parse(decoder.decode(blobs.get(files.get(path)!.oid)!))),
    );
  return out;
}

/**
 * Workload refKey → the replicas its FederatedHPA decided and which FederatedHPA. Two FederatedHPAs on one
 * workload (both then keep its count, AmbiguousSelector, as Karmada's controller refuses to scale pods two of them
 * select) resolve to the first by path, so the result never depends on read order.
 */
export function autoscaledReplicas(
  decisions: ReadonlyMap<string, AutoscalerDecisionFile>,
): Map<string, AutoscaledEntry> {
  const out = new Map<string, AutoscaledEntry>();
  for (const path of [...decisions.keys()].sort()) {
    const d = decisions.get(path)!;
    const key = decisionTargetKey(d);
    if (!out.has(key) && d.ableToScale !== MISSING_TARGET)
      out.set(key, {
        replicas: d.desiredReplicas,
        by: `FederatedHPA ${d.metadata.namespace}/${d.metadata.name}`,
        ...(d.gitReplicas !== undefined ? { gitReplicas: d.gitReplicas } : {}),
      });
  }
  return out;
}

// cronautoscalers/<namespace>/<name>.yaml: a CronFederatedHPA's execution history and what its last rule applied
// (statuses/decideFederatedHpas.ts). A folder of its own: a FederatedHPA and a CronFederatedHPA may share a name.
export const CRON_AUTOSCALERS_FOLDER = 'cronautoscalers/';

export interface CronExecutionHistory {
  ruleName: string;
  nextExecutionTime?: string;
  successfulExecutions?: {
    scheduleTime: string;
    executionTime: string;
    appliedReplicas?: number;
    appliedMinReplicas?: number;
    appliedMaxReplicas?: number;
  }[];
  failedExecutions?: { scheduleTime: string; executionTime: string; message: string }[];
}

export interface CronAutoscalerFile {
  apiVersion: typeof FEDERATED_HPA_API_VERSION;
  kind: 'CronFederatedHPA';
  metadata: { namespace: string; name: string };
  scaleTargetRef: { apiVersion: string; kind: string; name: string };
  /** What the last rule that ran set, and which rule when: replicas on a workload, min/max on a FederatedHPA. */
  applied?: {
    rule: string;
    scheduleTime: string;
    replicas?: number;
    minReplicas?: number;
    maxReplicas?: number;
    /** Git's spec.replicas of the workload when the rule ran: `replicas` holds only while Git still says this. */
    gitReplicas?: number;
    /** Git's minReplicas and maxReplicas of the FederatedHPA when they were set: each holds while Git still says it. */
    gitMinReplicas?: number;
    gitMaxReplicas?: number;
  };
  executionHistories: CronExecutionHistory[];
}

export function cronAutoscalerPath(namespace: string, name: string): string {
  return `${CRON_AUTOSCALERS_FOLDER}${namespace}/${name}.yaml`;
}

export function parseCronAutoscaler(text: string): CronAutoscalerFile {
  const v = parseYamlValue(text) as Partial<CronAutoscalerFile> | null;
  if (
    !v ||
    v.kind !== 'CronFederatedHPA' ||
    typeof v.metadata?.namespace !== 'string' ||
    typeof v.metadata?.name !== 'string' ||
    typeof v.scaleTargetRef?.kind !== 'string' ||
    !Array.isArray(v.executionHistories)
  )
    throw new Error('expected a CronFederatedHPA status with metadata, scaleTargetRef and executionHistories');
  return v as CronAutoscalerFile;
}

export function serializeCronAutoscaler(f: CronAutoscalerFile): string {
  return stringify(f, GO_YAML_STRINGIFY_OPTIONS);
}

/** Every CronFederatedHPA status in a status commit (by path); empty when there is none. */
export function readCronAutoscalers(
  repo: GitRepo,
  statusCommit: string | null,
): Promise<Map<string, CronAutoscalerFile>> {
  return readYamlFolder(repo, statusCommit, CRON_AUTOSCALERS_FOLDER, parseCronAutoscaler);
}

/**
 * Workload refKey → replicas set by a CronFederatedHPA rule on the workload itself (not on a FederatedHPA), added to
 * `into` where no FederatedHPA decided: a FederatedHPA's decision is the later word on its workload.
 */
export function withCronReplicas(
  into: Map<string, AutoscaledEntry>,
  crons: ReadonlyMap<string, CronAutoscalerFile>,
): Map<string, AutoscaledEntry> {
  for (const path of [...crons.keys()].sort()) {
    const c = crons.get(path)!;
    if (c.applied?.replicas === undefined || c.scaleTargetRef.apiVersion === FEDERATED_HPA_API_VERSION) continue;
    const key = decisionTargetKey(c);
    if (!into.has(key))
      into.set(key, {
        replicas: c.applied.replicas,
        by: `CronFederatedHPA ${c.metadata.namespace}/${c.metadata.name} rule ${c.applied.rule}`,
        ...(c.applied.gitReplicas !== undefined ? { gitReplicas: c.applied.gitReplicas } : {}),
      });
  }
  return into;
}

/** Every synced Deployment count in a status commit (by path); empty when there is none. */
export function readSyncedReplicas(
  repo: GitRepo,
  statusCommit: string | null,
): Promise<Map<string, SyncedReplicasFile>> {
  return readYamlFolder(repo, statusCommit, SYNCED_REPLICAS_FOLDER, parseSyncedReplicas);
}

/**
 * The paths of the synced Deployment counts in a status commit, without reading them: what a status pass needs to
 * delete the records whose Deployment is gone.
 */
export async function listSyncedReplicas(repo: GitRepo, statusCommit: string | null): Promise<Set<string>> {
  if (!statusCommit) return new Set();
  return new Set((await yamlFilesIn(repo, statusCommit, SYNCED_REPLICAS_FOLDER)).keys());
}

/** One workload's replicas as the render gives them, who set them, and (synced counts) the Git count they hold for. */
export interface AutoscaledEntry {
  replicas: number;
  by: string;
  /** Only while Git's spec.replicas is this (a synced count): an edit in Git since is the later word. */
  gitReplicas?: number;
}

/**
 * Workload refKey → the members' summed replicas the replicas syncer recorded, added to `into` where no FederatedHPA
 * or CronFederatedHPA decided.
 */
export function withSyncedReplicas(
  into: Map<string, AutoscaledEntry>,
  synced: ReadonlyMap<string, SyncedReplicasFile>,
): Map<string, AutoscaledEntry> {
  for (const path of [...synced.keys()].sort()) {
    const s = synced.get(path)!;
    const key = syncedReplicasKey(s);
    if (!into.has(key))
      into.set(key, {
        replicas: s.replicas,
        by: `the members' HPAs (replicas synced from the members)`,
        gitReplicas: s.gitReplicas,
      });
  }
  return into;
}

/**
 * FederatedHPA decisions, CronFederatedHPA workload replicas and synced member replicas of one status commit, as the
 * render uses them.
 */
export async function readAutoscaledReplicas(
  repo: GitRepo,
  statusCommit: string | null,
): Promise<Map<string, AutoscaledEntry>> {
  return withSyncedReplicas(
    withCronReplicas(
      autoscaledReplicas(await readAutoscalerDecisions(repo, statusCommit)),
      await readCronAutoscalers(repo, statusCommit),
    ),
    await readSyncedReplicas(repo, statusCommit),
  );
}
