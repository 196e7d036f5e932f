import type { Cluster } from '../api/cluster.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { classifyDocuments } from '../documents/classifyDocuments.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';

export interface ClusterRegistration {
  name: string;
  syncMode: Cluster['spec']['syncMode'];
  kubeconfigRef: { path?: string; context?: string } | undefined;
  /** file:line of the registration, for messages. */
  source: string;
}

/** Parsed Cluster objects by blob oid: the registrations change rarely, a reconciler reads them every pass. */
export type RegistrationCache = Map<string, ClusterRegistration[]>;

/**
 * The Cluster registrations of the source commit the rendered branch was last rendered from. The output index
 * names the files holding Karmada objects, so only those few blobs are read; an invalid registration, or a name two
 * files register differently, is skipped (its problems are in the output commit message), which leaves that cluster
 * alone this pass.
 */
export async function readClusterRegistrations(
  repo: GitRepo,
  outputRef: string,
  cache: RegistrationCache = new Map(),
): Promise<ClusterRegistration[]> {
  // Below a hand-made commit on the output branch: the last commit Flotilla wrote, and the source it rendered.
  const { rendered, source: sourceCommit } = await readLastRender(repo, outputRef);
  if (!rendered || !sourceCommit) return [];
  const index = await openOutputIndex(repo, rendered.tree);
  if (!index) return [];
  const files = [...index.karmadaFiles()];
  const source = await readCommitInfo(repo, sourceCommit);
  const oids = await readPathOids(repo, source.tree, files);
  const missing = [...oids].filter(([, oid]) => !cache.has(oid));
  const blobs = await readBlobs(
    repo,
    missing.map(([, oid]) => oid),
  );
  for (const [file, oid] of missing) {
    const { documents, problems } = parseDocuments(file, blobs.get(oid)!);
    const parsed = classifyDocuments(file, documents, problems);
    cache.set(
      oid,
      parsed.clusters.map(({ object, source: at }) => ({
        name: object.metadata.name,
        syncMode: object.spec.syncMode,
        kubeconfigRef: object.spec.kubeconfigRef,
        source: `${at.file}:${at.line}`,
      })),
    );
  }
  const byName = new Map<string, ClusterRegistration[]>();
  for (const oid of oids.values())
    for (const c of cache.get(oid) ?? []) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  // A name registered twice (DUPLICATE_OBJECT for the render, which keeps its last good definition) connects nowhere
  // unless both say the same: a second file must not point an existing cluster's name at another API server.
  return [...byName.values()]
    .flatMap((same) => (same.every((c) => sameConnection(c, same[0]!)) ? [same[0]!] : []))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

function sameConnection(a: ClusterRegistration, b: ClusterRegistration): boolean {
  return (
    (a.syncMode ?? 'Push') === (b.syncMode ?? 'Push') &&
    a.kubeconfigRef?.path === b.kubeconfigRef?.path &&
    a.kubeconfigRef?.context === b.kubeconfigRef?.context
  );
}
