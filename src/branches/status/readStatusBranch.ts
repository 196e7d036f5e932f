import { parseYamlValue } from '../../yaml/blockYaml.ts';
import type { ObservedCluster } from '../../api/cluster.ts';
import { refKey, type ObjectRef } from '../../api/kinds.ts';
import { readBlobs } from '../../commits/readBlobs.ts';
import { readCommitInfo } from '../../commits/readCommitInfo.ts';
import { readRef } from '../../commits/readRef.ts';
import { readTree } from '../../commits/readTree.ts';
import type { GitRepo } from '../../commits/types.ts';
import { parseBranchFile } from '../../errors/parseBranchFile.ts';
import { readTextFiles } from '../../commits/readPathOids.ts';
import type { AggregatedStatusItem } from './statusFiles.ts';
import {
  parsePending,
  PENDING_READY_ANNOTATION,
  templateStatusPath,
  type ClusterStatusFile,
  type TemplateStatusFile,
} from './statusFiles.ts';
import type { PendingReady } from './statusFiles.ts';

/** What the status branch's clusters/<name>.yaml files say. */
export interface StatusBranchClusters {
  /**
   * Every cluster's status and controller-managed taints. Empty when the branch does not exist: nothing is known,
   * so every cluster counts as Ready with every API enabled.
   */
  observed: Map<string, ObservedCluster>;
  /** Ready observations still inside their damping threshold, by cluster (the flotilla.io/ready-observed annotation). */
  pending: Map<string, PendingReady>;
}

/** Both views of the cluster files from one read and parse (a pass schedule needs both, after every pass). */
export async function readStatusBranchClusters(repo: GitRepo, statusRef: string): Promise<StatusBranchClusters> {
  const observed = new Map<string, ObservedCluster>();
  const pending = new Map<string, PendingReady>();
  for (const [name, c] of await readClusterFiles(repo, statusRef)) {
    observed.set(name, {
      ...(c?.status ? { status: c.status } : {}),
      ...(c?.spec?.taints?.length ? { taints: c.spec.taints } : {}),
    });
    const ready = parsePending(c?.metadata?.annotations?.[PENDING_READY_ANNOTATION]);
    if (ready) pending.set(name, ready);
  }
  return { observed, pending };
}

/** Every cluster's status and controller-managed taints from the status branch (see StatusBranchClusters.observed). */
export async function readObservedClusters(repo: GitRepo, statusRef: string): Promise<Map<string, ObservedCluster>> {
  return (await readStatusBranchClusters(repo, statusRef)).observed;
}

async function readClusterFiles(
  repo: GitRepo,
  statusRef: string,
): Promise<Map<string, Partial<ClusterStatusFile> | null>> {
  const out = new Map<string, Partial<ClusterStatusFile> | null>();
  const head = await readRef(repo, statusRef);
  if (!head) return out;
  const root = await readTree(repo, (await readCommitInfo(repo, head)).tree);
  const folder = root.find((e) => e.name === 'clusters');
  if (!folder) return out;
  const files = (await readTree(repo, folder.oid)).filter((e) => e.name.endsWith('.yaml'));
  const blobs = await readBlobs(
    repo,
    files.map((f) => f.oid),
  );
  const decoder = new TextDecoder();
  for (const f of files) {
    const c = parseBranchFile(statusRef, `clusters/${f.name}`, () =>
      parseYamlValue(decoder.decode(blobs.get(f.oid)!)),
    ) as Partial<ClusterStatusFile> | null;
    out.set(c?.metadata?.name ?? f.name.slice(0, -'.yaml'.length), c);
  }
  return out;
}

/** The aggregatedStatus of the given templates from the status branch, by refKey; templates without a file are absent. */
export async function readTemplateStatuses(
  repo: GitRepo,
  statusRef: string,
  refs: readonly ObjectRef[],
): Promise<Map<string, AggregatedStatusItem[]>> {
  const out = new Map<string, AggregatedStatusItem[]>();
  const head = refs.length > 0 ? await readRef(repo, statusRef) : undefined;
  if (!head) return out;
  const byPath = new Map(refs.map((r) => [templateStatusPath(r), r]));
  for (const [path, text] of await readTextFiles(repo, (await readCommitInfo(repo, head)).tree, [...byPath.keys()])) {
    const file = parseBranchFile(statusRef, path, () => parseYamlValue(text)) as TemplateStatusFile | null;
    out.set(refKey(byPath.get(path)!), file?.aggregatedStatus ?? []);
  }
  return out;
}
