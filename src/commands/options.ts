import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import type { Cluster } from '../api/cluster.ts';

export interface CommonOptions {
  repo: string;
  rev: string;
  sourceRef: string;
  outputRef: string;
  clusterStatusFile: string | undefined;
  output: 'text' | 'wide' | 'yaml' | 'json';
  out: (s: string) => void;
  err: (s: string) => void;
}

/** `--cluster-status FILE`: a YAML stream of Cluster objects; only their status is used. */
export async function readClusterStatus(file: string | undefined): Promise<Map<string, Cluster['status']> | undefined> {
  if (!file) return undefined;
  const text = await readFile(file, 'utf8');
  const out = new Map<string, Cluster['status']>();
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw Object.assign(new Error(`${file}: ${doc.errors[0]!.message}`), { code: 'BAD_STATUS_FILE' });
    const c = doc.toJS() as Cluster | null;
    if (c?.kind === 'Cluster' && c.metadata?.name) out.set(c.metadata.name, c.status ?? {});
  }
  return out;
}
