// What the replayed Karmada e2e propagation scenarios share: Karmada's three e2e members, its test objects and
// policies as YAML, and a config repo rendered commit by commit (test/outputs/karmadaE2ePropagation*.test.ts).
import { parse, stringify } from 'yaml';
import type { test as uvuTest } from 'uvu';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepo, RENDERED_REF, SOURCE_REF, type ConfigRepo } from './fleet.ts';

export type Obj = Record<string, unknown>;
export const yaml = (o: Obj) => stringify(o);
export const MEMBERS = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'clusters/member2.yaml': clusterYaml('member2'),
  'clusters/member3.yaml': clusterYaml('member3'),
};
export const ALL = ['member1', 'member2', 'member3'];

/** testhelper.NewDeployment: nginx:1.19.0, `replicas` of it. */
export const deployment = (name: string, replicas = 3, labels?: Record<string, string>) =>
  yaml({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.19.0' }] },
      },
    },
  });

export const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' };
export const names = (clusters: string[]) => ({ clusterAffinity: { clusterNames: clusters } });

export function pp(name: string, selectors: Obj[], placement: Obj | undefined, extra: Obj = {}): string {
  return yaml({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: { resourceSelectors: selectors, ...(placement ? { placement } : {}), ...extra },
  });
}
export function cpp(name: string, selectors: Obj[], placement: Obj | undefined, extra: Obj = {}): string {
  return yaml({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name },
    spec: { resourceSelectors: selectors, ...(placement ? { placement } : {}), ...extra },
  });
}

/** `rendered(files)`: a config repo whose first commit is already rendered, removed after the suite. */
export function renderedRepos(suite: typeof uvuTest): (files: Record<string, string>) => Promise<ConfigRepo> {
  const repos: ConfigRepo[] = [];
  suite.after(() => {
    for (const r of repos) r.cleanup();
  });
  return async (files) => {
    const r = makeConfigRepo();
    repos.push(r);
    r.commit(files, 'base');
    await sync(r);
    return r;
  };
}
export async function sync(r: ConfigRepo) {
  return (await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF })).reports.flatMap(
    (x) => x.problems,
  );
}
export async function step(r: ConfigRepo, files: Record<string, string | null>) {
  r.commit(files, 'step');
  return sync(r);
}
/** The rendered object at `path`, or undefined when the rendered branch has none. */
export function out(r: ConfigRepo, path: string): Obj | undefined {
  return r.ls('flotilla/rendered').includes(path) ? (parse(r.show('flotilla/rendered', path)) as Obj) : undefined;
}
export const deployOn = (cluster: string, name: string) => `clusters/${cluster}/default/deployment.apps_${name}.yaml`;
/** Clusters whose rendered folder holds the object `file` (path after clusters/<cluster>/). */
export const where = (r: ConfigRepo, file: string) =>
  r
    .ls('flotilla/rendered')
    .filter((p) => p.endsWith(`/${file}`) && p.startsWith('clusters/'))
    .map((p) => p.split('/')[1])
    .sort();
export const meta = (o: Obj | undefined) =>
  (o?.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
export const spec = (o: Obj | undefined) => (o?.spec ?? {}) as Record<string, any>;
