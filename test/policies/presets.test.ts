import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

const PRESETS = path.resolve(import.meta.dirname, '../../policies');
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const fleet = {
  'clusters/c1.yaml': clusterYaml('c1', { region: 'region-1', zones: ['z1'], labels: { tier: 'production' } }),
  'clusters/c2.yaml': clusterYaml('c2', { region: 'region-1', zones: ['z2'], labels: { tier: 'production' } }),
  'clusters/c3.yaml': clusterYaml('c3', { region: 'region-2', zones: ['z3'], labels: { tier: 'production' } }),
  'clusters/c4.yaml': clusterYaml('c4', { region: 'region-2', zones: ['z4'], labels: { tier: 'production' } }),
  'clusters/c5.yaml': clusterYaml('c5', { region: 'region-2', zones: ['z5'] }),
};

function app(preset: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${preset}-app
  labels:
    flotilla.io/preset: ${preset}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec:
      containers: [{name: x, image: nginx, resources: {requests: {cpu: 100m}}}]
`;
}

async function placements(files: Record<string, string>) {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(files);
  const { model, output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    model.problems.filter((p) => p.severity === 'error'),
    [],
    'presets validate',
  );
  const result = new Map<string, { name: string; replicas: number }[]>();
  for (const [p, text] of output.edits) {
    if (p.startsWith('bindings/') && text) {
      const b = parse(text);
      result.set(b.spec.resource.name, b.spec.clusters);
    }
  }
  return { result, output };
}

const preset = (name: string) => readFileSync(path.join(PRESETS, `${name}.yaml`), 'utf8');
const total = (l: { replicas: number }[] = []) => l.reduce((s, c) => s + c.replicas, 0);

test('active-active: both production clusters of region-1, replicas split evenly', async () => {
  const { result } = await placements({
    ...fleet,
    'policies/p.yaml': preset('active-active'),
    'templates/a.yaml': app('active-active', 4),
  });
  assert.equal(result.get('active-active-app'), [
    { name: 'c1', replicas: 2 },
    { name: 'c2', replicas: 2 },
  ]);
});

test('two-region-three-datacenter: three production clusters over both regions', async () => {
  const { result } = await placements({
    ...fleet,
    'policies/p.yaml': preset('two-region-three-datacenter'),
    'templates/a.yaml': app('two-region-three-datacenter', 6),
  });
  const got = result.get('two-region-three-datacenter-app') ?? [];
  assert.is(got.length, 3, JSON.stringify(got));
  assert.is(total(got), 6);
  const regions = new Set(got.map((c) => (c.name === 'c1' || c.name === 'c2' ? 'region-1' : 'region-2')));
  assert.is(regions.size, 2);
  assert.not.ok(
    got.some((c) => c.name === 'c5'),
    'c5 is not labelled production',
  );
});

test('remote-disaster-recovery: the primary region while it fits, the DR region when it does not', async () => {
  const { result, output } = await placements({
    ...fleet,
    'policies/p.yaml': preset('remote-disaster-recovery'),
    'templates/a.yaml': app('remote-disaster-recovery', 2),
  });
  assert.equal(
    result.get('remote-disaster-recovery-app')?.map((c) => c.name),
    ['c1', 'c2'],
  );
  const explanation = [...output.explanations.values()].find((e) => e.ref.name === 'remote-disaster-recovery-app');
  assert.is(explanation?.schedule?.affinityName, 'primary');
  const { 'clusters/c1.yaml': _1, 'clusters/c2.yaml': _2, ...drOnly } = fleet;
  const dr = await placements({
    ...drOnly,
    'policies/p.yaml': preset('remote-disaster-recovery'),
    'templates/a.yaml': app('remote-disaster-recovery', 2),
  });
  const got = dr.result.get('remote-disaster-recovery-app') ?? [];
  assert.ok(got.length > 0 && got.every((c) => ['c3', 'c4', 'c5'].includes(c.name)), JSON.stringify(got));
  assert.is(total(got), 2);
});

test('region-spread-dynamic: at least two regions, all replicas placed', async () => {
  const { result } = await placements({
    ...fleet,
    'policies/p.yaml': preset('region-spread-dynamic'),
    'templates/a.yaml': app('region-spread-dynamic', 5),
  });
  const got = result.get('region-spread-dynamic-app') ?? [];
  assert.is(total(got), 5, JSON.stringify(got));
  const regions = new Set(got.map((c) => (c.name === 'c1' || c.name === 'c2' ? 'region-1' : 'region-2')));
  assert.is(regions.size, 2);
});

test.run();
