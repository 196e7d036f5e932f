import { readFile } from 'node:fs/promises';
import type { Cluster, ObservedCluster } from '../api/cluster.ts';
import type { GitRepo } from '../commits/types.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';

export interface CommonOptions {
  repo: string;
  rev: string;
  sourceRef: string;
  outputRef: string;
  clusterStatusFile: string | undefined;
  /** --max-source-files and --max-output-bytes: what render, sync and verify may read and write. */
  limits?: RenderLimits;
  output: 'text' | 'wide' | 'yaml' | 'json';
  out: (s: string) => void;
  err: (s: string) => void;
  /** Whether `err` writes to a terminal: long commands then show what they are doing (workingLine). Absent: no. */
  errIsTerminal?: boolean;
}

/**
 * What render, sync, plan and explain know of the clusters beyond Git: the --cluster-status file when given, else
 * the status branch (empty when it does not exist: every cluster unknown, so Ready with every API enabled).
 */
export async function observedClusters(repo: GitRepo, file: string | undefined): Promise<Map<string, ObservedCluster>> {
  return (await readClusterStatus(file)) ?? readObservedClusters(repo, DEFAULT_STATUS_REF);
}

/** `--cluster-status FILE`: a YAML stream of Cluster objects; their status and spec.taints (as a controller wrote them) are used. */
export async function readClusterStatus(file: string | undefined): Promise<Map<string, ObservedCluster> | undefined> {
  if (!file) return undefined;
  const fail = (message: string) => Object.assign(new Error(message), { code: 'BAD_STATUS_FILE' });
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw fail(
      `--cluster-status ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}; fix: pass a YAML stream of cluster.karmada.io/v1alpha1 Cluster objects with status`,
    );
  });
  const out = new Map<string, ObservedCluster>();
  const { documents, problems } = parseDocuments(file, new TextEncoder().encode(text));
  const problem = problems.find((p) => p.severity === 'error');
  if (problem) throw fail(`${file}:${problem.line}:${problem.column}: ${problem.message}; fix: ${problem.fix}`);
  for (const doc of documents) {
    const c = doc.value as Cluster | null;
    if (c?.kind === 'Cluster' && c.metadata?.name)
      out.set(c.metadata.name, {
        status: c.status ?? {},
        ...(c.spec?.taints?.length ? { taints: c.spec.taints } : {}),
      });
  }
  return out;
}
