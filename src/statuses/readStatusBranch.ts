import { parse } from 'yaml';
import type { Cluster, ObservedCluster } from '../api/cluster.ts';
import { refKey, type ObjectRef } from '../api/kinds.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { readTree } from '../commits/readTree.ts';
import type { GitRepo } from '../commits/types.ts';
import { readPathOids } from '../outputs/readPathOids.ts';
import type { AggregatedStatusItem } from './aggregateStatus.ts';
import { templateStatusPath, type TemplateStatusFile } from './buildStatusFiles.ts';

/**
 * Every cluster's status and controller-managed taints from the status branch (clusters/<name>.yaml). An empty map
 * when the branch does not exist: nothing is known, so every cluster counts as Ready with every API enabled.
 */
export async function readObservedClusters(repo: GitRepo, statusRef: string): Promise<Map<string, ObservedCluster>> {
  const out = new Map<string, ObservedCluster>();
  const head = await readRef(repo, statusRef);
  if (!head) return out;
  const root = await readTree(repo, (await readCommitInfo(repo, head)).tree);
  const folder = root.find((e) => e.name === 'clusters');
  if (!folder) return out;
  const files = (await readTree(repo, folder.oid)).filter((e) => e.name.endsWith('.yaml'));
  const blobs = await readBlobs(repo, files.map((f) => f.oid));
  const decoder = new TextDecoder();
  for (const f of files) {
    const c = parse(decoder.decode(blobs.get(f.oid)!)) as Partial<Cluster> | null;
    const name = c?.metadata?.name ?? f.name.slice(0, -'.yaml'.length);
    out.set(name, { ...(c?.status ? { status: c.status } : {}), ...(c?.spec?.taints?.length ? { taints: c.spec.taints } : {}) });
  }
  return out;
}

/** The aggregatedStatus of the given templates from the status branch, by refKey; templates without a file are absent. */
export async function readTemplateStatuses(repo: GitRepo, statusRef: string, refs: readonly ObjectRef[]): Promise<Map<string, AggregatedStatusItem[]>> {
  const out = new Map<string, AggregatedStatusItem[]>();
  const head = refs.length > 0 ? await readRef(repo, statusRef) : undefined;
  if (!head) return out;
  const byPath = new Map(refs.map((r) => [templateStatusPath(r), r]));
  const oids = await readPathOids(repo, (await readCommitInfo(repo, head)).tree, [...byPath.keys()]);
  const blobs = await readBlobs(repo, oids.values());
  const decoder = new TextDecoder();
  for (const [path, oid] of oids) {
    const file = parse(decoder.decode(blobs.get(oid)!)) as TemplateStatusFile | null;
    out.set(refKey(byPath.get(path)!), file?.aggregatedStatus ?? []);
  }
  return out;
}
