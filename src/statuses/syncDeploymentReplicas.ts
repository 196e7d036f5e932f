// Karmada's deployment replicas syncer (pkg/controllers/deploymentreplicassyncer/deployment_replicas_syncer_controller.go)
// on the status side. Karmada writes the members' summed status.replicas into the Deployment template's
// spec.replicas when HPAs on the members scale it (retain-replicas) and its placement divides replicas, so the next
// schedule divides what the members really run. Flotilla never writes to the user's branch: the count is recorded on
// the status branch (branches/status/syncedReplicas.ts) and the render reads it from there.
import { refKey, type ObjectRef } from '../api/kinds.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { Template } from '../api/model.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { templateStatusPath, type TemplateStatusFile } from '../branches/status/statusFiles.ts';
import {
  parseSyncedReplicas,
  serializeSyncedReplicas,
  syncedReplicasPath,
  type SyncedReplicasFile,
} from '../branches/status/syncedReplicas.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import { RETAIN_REPLICAS_LABEL, RETAIN_REPLICAS_VALUE } from '../interpreters/retainForMember.ts';
import { formatTime } from '../time/formatTime.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';

export interface SyncInput {
  /** Git's spec.replicas of the template (undefined: none, the API server's default 1). */
  gitReplicas: number | undefined;
  /** The binding of the rendered commit: the template's replicas, its target clusters and its placement. */
  binding: Pick<ResourceBinding, 'spec'>;
  /** The template's status file on the status branch (its aggregated status); undefined before the first. */
  status: Pick<TemplateStatusFile, 'aggregatedStatus'> | undefined;
  ref: Pick<ObjectRef, 'namespace' | 'name'>;
  now: Date;
}

/** Why nothing is synced this time (for the pure function's tests), or the new record. */
export type SyncOutcome = { wait: string } | { file: SyncedReplicasFile };

/**
 * Karmada's Reconcile and isDeploymentStatusCollected: only a Divided placement; nothing when the template's replicas
 * already equal the members' sum; and only once the status is collected from every target cluster, each member
 * having observed its current spec and running at least one replica (an HPA's minReplicas is at least 1, so 0 means
 * the status is not in yet). Pure.
 */
export function decideReplicasSync(input: SyncInput): SyncOutcome {
  const { binding } = input;
  if (binding.spec.placement?.replicaScheduling?.replicaSchedulingType !== 'Divided')
    return { wait: 'not a Divided placement' };
  const templateReplicas = binding.spec.replicas;
  if (typeof templateReplicas !== 'number') return { wait: 'the binding has no replicas' };
  const targets = (binding.spec.clusters ?? []).map((c) => c.name);
  const items = input.status?.aggregatedStatus ?? [];
  if (items.length !== targets.length || !targets.every((c) => items.some((i) => i.clusterName === c)))
    return { wait: "not every target cluster's status is collected" };
  const clusters: Record<string, number> = {};
  let sum = 0;
  for (const item of items) {
    const s = item.status as { replicas?: unknown; observedGeneration?: unknown; generation?: unknown } | undefined;
    if (!item.applied || typeof s?.replicas !== 'number' || s.replicas <= 0)
      return { wait: `the status of ${item.clusterName} is not collected` };
    if (
      typeof s.generation === 'number' &&
      typeof s.observedGeneration === 'number' &&
      s.observedGeneration < s.generation
    )
      return { wait: `${item.clusterName} has not observed its current spec` };
    clusters[item.clusterName] = s.replicas;
    sum += s.replicas;
  }
  if (sum === templateReplicas) return { wait: 'the template replicas equal the members' };
  const gitReplicas = input.gitReplicas ?? 1;
  const file: SyncedReplicasFile = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace: input.ref.namespace ?? '', name: input.ref.name },
    replicas: sum,
    gitReplicas,
    previousReplicas: templateReplicas,
    clusters,
    time: formatTime(input.now),
  };
  return { file };
}

export interface SyncEdits {
  edits: Map<string, string | null>;
  lines: string[];
}

/** One Deployment HPAs on the members scale, with what the decision needs from Git. */
export interface ScaledDeployment {
  ref: ObjectRef;
  gitReplicas: number | undefined;
  binding: ResourceBinding;
}

/**
 * What the replicas syncer reads from Git before a status commit: the source's Deployments that HPAs on the members
 * scale, each with its rendered binding, and the records whose Deployment left the source. The decision itself waits
 * for the status files that commit writes (replicasSyncEdits), as Karmada's syncer runs on the template's status
 * update: deciding from the branch as it was would follow the members one status pass late.
 */
export interface ReplicasSyncPlan {
  scaled: ScaledDeployment[];
  /** syncedreplicas/ records to delete: their Deployment is gone. */
  gone: SyncEdits;
}

/**
 * The plan for the source's Deployments, from the rendered commit's bindings. A record whose Deployment left the
 * source goes; one whose Deployment stops being scaled stays, as the count Karmada wrote stays in the template.
 */
export async function planReplicasSyncs(input: {
  repo: GitRepo;
  renderedCommit: string;
  templates: ReadonlyMap<string, Template>;
  /** The syncedreplicas/ paths on the status branch now. */
  existing: ReadonlySet<string>;
}): Promise<ReplicasSyncPlan> {
  const gone: SyncEdits = { edits: new Map(), lines: [] };
  const plan: ReplicasSyncPlan = { scaled: [], gone };
  const deployments = [...input.templates.values()].filter(
    (t) => t.ref.apiVersion === 'apps/v1' && t.ref.kind === 'Deployment',
  );
  const wanted = new Set(deployments.map((t) => syncedReplicasPath(t.ref.namespace, t.ref.name)));
  for (const path of input.existing)
    if (!wanted.has(path)) {
      gone.edits.set(path, null);
      gone.lines.push(`${path}: its Deployment is gone`);
    }
  // Only a Deployment an HPA in the source names (or labelled by hand) can be marked: the index is read for those
  // alone, so a status pass over a large repository reads a few shards, not all of them.
  const targeted = new Set<string>();
  for (const t of input.templates.values()) {
    if (t.ref.kind !== 'HorizontalPodAutoscaler') continue;
    const target = (t.manifest.spec as { scaleTargetRef?: { kind?: string; name?: string } } | undefined)
      ?.scaleTargetRef;
    if (target?.kind === 'Deployment' && target.name) targeted.add(`${t.ref.namespace}/${target.name}`);
  }
  const candidates = deployments.filter(
    (t) =>
      t.labels[RETAIN_REPLICAS_LABEL] === RETAIN_REPLICAS_VALUE || targeted.has(`${t.ref.namespace}/${t.ref.name}`),
  );
  if (candidates.length === 0) return plan;
  const renderedTree = (await readCommitInfo(input.repo, input.renderedCommit)).tree;
  const index = await openOutputIndex(input.repo, renderedTree);
  await index?.load({ templates: candidates.map((t) => refKey(t.ref)) });
  const scaled = candidates.filter(
    (t) =>
      t.labels[RETAIN_REPLICAS_LABEL] === RETAIN_REPLICAS_VALUE ||
      (index?.template(refKey(t.ref))?.scaledBy ?? []).length > 0,
  );
  if (scaled.length === 0) return plan;
  const bindings = await readTextFiles(
    input.repo,
    renderedTree,
    scaled.map((t) => bindingPath(t.ref)),
  );
  for (const t of scaled) {
    const bindingText = bindings.get(bindingPath(t.ref));
    if (!bindingText) continue;
    const inGit = (t.manifest.spec as { replicas?: unknown } | undefined)?.replicas;
    plan.scaled.push({
      ref: t.ref,
      gitReplicas: typeof inGit === 'number' ? inGit : undefined,
      binding: parseYamlValue(bindingText) as ResourceBinding,
    });
  }
  return plan;
}

/** The status branch files the decision reads or deletes: each scaled Deployment's template status and record. */
export function replicasSyncPaths(plan: ReplicasSyncPlan): string[] {
  return [
    ...plan.gone.edits.keys(),
    ...plan.scaled.flatMap((d) => [templateStatusPath(d.ref), syncedReplicasPath(d.ref.namespace, d.ref.name)]),
  ];
}

/**
 * The synced counts to commit, decided on `files`: the status branch's files as the status commit being made writes
 * them (the members' status of this pass merged in), so the count follows the members in the same commit. Pure.
 */
export function replicasSyncEdits(
  plan: ReplicasSyncPlan,
  files: (path: string) => string | undefined,
  now: Date,
): SyncEdits {
  const out: SyncEdits = { edits: new Map(plan.gone.edits), lines: [...plan.gone.lines] };
  for (const d of plan.scaled) {
    const path = syncedReplicasPath(d.ref.namespace, d.ref.name);
    const outcome = decideReplicasSync({
      gitReplicas: d.gitReplicas,
      binding: d.binding,
      status: parsedOrUndefined(files(templateStatusPath(d.ref)), (text) => parseYamlValue(text) as TemplateStatusFile),
      ref: d.ref,
      now,
    });
    if (!('file' in outcome)) continue;
    const before = parsedOrUndefined(files(path), parseSyncedReplicas);
    if (before && before.replicas === outcome.file.replicas && before.gitReplicas === outcome.file.gitReplicas)
      continue;
    out.edits.set(path, serializeSyncedReplicas(outcome.file));
    out.lines.push(
      `Replicas synced for Deployment ${d.ref.namespace}/${d.ref.name}: ${outcome.file.previousReplicas} -> ${outcome.file.replicas} replicas, as the members run them (${Object.entries(
        outcome.file.clusters,
      )
        .map(([c, n]) => `${n} in ${c}`)
        .join(', ')}; ${outcome.file.gitReplicas} in Git)`,
    );
  }
  return out;
}

/**
 * A status branch file parsed, or undefined when absent or unreadable: the decision runs inside the status commit,
 * which a damaged record must not stop (it waits, or the record is written afresh).
 */
function parsedOrUndefined<T>(text: string | undefined, parse: (text: string) => T): T | undefined {
  if (text === undefined) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}
