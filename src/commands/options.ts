import { readFile } from 'node:fs/promises';
import { LineCounter, parseAllDocuments } from 'yaml';
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
  const fail = (message: string) => Object.assign(new Error(message), { code: 'BAD_STATUS_FILE' });
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw fail(`--cluster-status ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}; fix: pass a YAML stream of cluster.karmada.io/v1alpha1 Cluster objects with status`);
  });
  const out = new Map<string, Cluster['status']>();
  const lines = new LineCounter();
  for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = lines.linePos(error.pos[0]);
      throw fail(`${file}:${line}:${col}: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}; fix: correct the YAML there`);
    }
    const c = doc.toJS() as Cluster | null;
    if (c?.kind === 'Cluster' && c.metadata?.name) out.set(c.metadata.name, c.status ?? {});
  }
  return out;
}
