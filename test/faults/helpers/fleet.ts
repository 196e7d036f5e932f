// A small config repo (real git) with its rendered branch: the system under test of the Git-side scenarios.
// Expected and actual output are both read back from the rendered branch, so "lost" counts real files.
import { openRepo } from '../../../src/commits/openRepo.ts';
import { listTreeFiles } from '../../../src/commits/listTreeFiles.ts';
import { readBlobs } from '../../../src/commits/readBlobs.ts';
import { readCommitInfo } from '../../../src/commits/readCommitInfo.ts';
import { readRef } from '../../../src/commits/readRef.ts';
import type { GitRepo } from '../../../src/commits/types.ts';
import type { Problem } from '../../../src/errors/problem.ts';
import { syncRepo, type SyncResult } from '../../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../../helpers/configRepo.ts';

export const SOURCE_REF = 'refs/heads/main';
export const RENDERED_REF = 'refs/heads/flotilla/rendered';
export const CLUSTERS = ['member1', 'member2'] as const;

export function configMap(name: string, data: Record<string, string> = { value: name }, namespace = 'default'): string {
  const body = Object.entries(data).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`).join('\n');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n${body}\n`;
}

export function deployment(name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
  labels:
    app: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
          resources:
            requests:
              cpu: 10m
              memory: 16Mi
`;
}

/** Every ConfigMap and Deployment of namespace default goes to every listed cluster, whole. */
export function policy(clusters: readonly string[] = CLUSTERS, extra = ''): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: everything
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity:
      clusterNames: [${clusters.join(', ')}]
    replicaScheduling:
      replicaSchedulingType: Duplicated
${extra}`;
}

/** The starting commit: N ConfigMaps, one Deployment, the policy and the clusters. */
export function baseFiles(configMaps = 4, clusters: readonly string[] = CLUSTERS): Record<string, string> {
  const files: Record<string, string> = { 'policies/everything.yaml': policy(clusters), 'templates/web.yaml': deployment('web', 2) };
  for (const c of clusters) files[`clusters/${c}.yaml`] = clusterYaml(c);
  for (let i = 0; i < configMaps; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  return files;
}

export interface Fleet {
  work: ConfigRepo;
  repo: GitRepo;
  sync(): Promise<SyncResult>;
  /** Path → blob oid of the rendered branch's head (empty when there is none). */
  output(): Promise<Map<string, string>>;
  /** Text of one file of the rendered head. */
  outputText(path: string): Promise<string | undefined>;
  renderedHead(): Promise<string | null>;
  cleanup(): void;
}

export async function makeFleet(files: Record<string, string> = baseFiles()): Promise<Fleet> {
  const work = makeConfigRepo();
  work.commit(files, 'Base fleet');
  const repo = await openRepo(work.dir);
  const output = async () => {
    const head = await readRef(repo, RENDERED_REF);
    if (!head) return new Map<string, string>();
    const tree = await listTreeFiles(repo, (await readCommitInfo(repo, head)).tree);
    return new Map([...tree].map(([p, f]) => [p, f.oid]));
  };
  return {
    work, repo, output,
    // A fresh GitRepo per sync: a long-running reconciler re-reads refs each pass, and so must the test.
    sync: async () => syncRepo(await openRepo(work.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF }),
    async outputText(path) {
      const oid = (await output()).get(path);
      if (!oid) return undefined;
      return new TextDecoder().decode((await readBlobs(repo, [oid])).get(oid)!);
    },
    renderedHead: () => readRef(repo, RENDERED_REF),
    cleanup: () => work.cleanup(),
  };
}

/** Rendered manifests only (clusters/…), the part members receive. */
export function manifests(files: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...files].filter(([p]) => p.startsWith('clusters/')));
}

/** Expected paths absent from the actual output. */
export function missing(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): string[] {
  return [...expected.keys()].filter((p) => !actual.has(p));
}

/** Expected paths present with other bytes. */
export function changed(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): string[] {
  return [...expected].filter(([p, oid]) => actual.has(p) && actual.get(p) !== oid).map(([p]) => p);
}

export function manifestOf(cluster: string, kind: string, name: string, namespace = 'default', group = ''): string {
  return `clusters/${cluster}/${namespace}/${kind.toLowerCase()}${group ? `.${group}` : ''}_${name}.yaml`;
}

export function errorsOf(sync: SyncResult): Problem[] {
  return sync.reports.flatMap((r) => r.problems).filter((p) => p.severity === 'error');
}
