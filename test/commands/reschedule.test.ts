// flotilla reschedule: a WorkloadRebalancer committed to the config repo makes the next sync schedule the
// workload in fresh mode, exactly once; syncs after it are steady again.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';
import { freeCapacity, WEB_BY_CAPACITY_POLICY, webByCapacityFiles, webDeployment } from './helpers/webByCapacity.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: ENV });

/** Web at 4 replicas; a new `label` changes the template and nothing the scheduler reads. */
const deployment = (label: string) => webDeployment(4, `, labels: {rev: "${label}"}`);

test('a dynamic-weight workload keeps its split when capacity changes (steady), and is re-split once after reschedule', () => {
  const r = makeConfigRepo();
  try {
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    const sync = () => {
      const res = flotilla('sync', '--repo', r.dir, '--cluster-status', statusFile);
      assert.is(res.status, 0, res.stderr);
    };
    const split = () => parse(r.show('flotilla/rendered', 'bindings/default/web-deployment.yaml')).spec.clusters;
    writeFileSync(statusFile, freeCapacity({ member1: 3, member2: 9 }));
    r.commit(webByCapacityFiles(deployment('1')));
    sync();
    assert.equal(split(), [
      { name: 'member1', replicas: 1 },
      { name: 'member2', replicas: 3 },
    ]);

    // Capacity moves to member1; the template is re-rendered (a label changed) but its split stays.
    writeFileSync(statusFile, freeCapacity({ member1: 15, member2: 1 }));
    r.commit({ 'templates/web.yaml': deployment('2') });
    sync();
    assert.equal(
      split(),
      [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 3 },
      ],
      'steady mode',
    );

    const res = flotilla('reschedule', 'deployment/web', '--repo', r.dir, '--reason', 'capacity moved to member1');
    assert.is(res.status, 0, res.stderr);
    const file = r.ls('main').find((f) => f.startsWith('rebalancers/'));
    assert.ok(file, 'the request is a file on main');
    const rebalancer = parse(r.show('main', file!));
    assert.is(rebalancer.apiVersion, 'apps.karmada.io/v1alpha1');
    assert.is(rebalancer.kind, 'WorkloadRebalancer');
    assert.equal(rebalancer.spec.workloads, [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
    ]);
    assert.is(rebalancer.metadata.annotations['flotilla.io/reason'], 'capacity moved to member1');
    assert.is(r.git('status', '--porcelain'), '', 'the work tree stays clean');

    sync();
    // Fresh mode: 4 replicas by free + held capacity, 16:4.
    assert.equal(
      split(),
      [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 1 },
      ],
      'fresh mode',
    );
    const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
    assert.match(message, 'Rescheduled in fresh mode (WorkloadRebalancer), once:');
    assert.match(message, `Deployment default/web by ${rebalancer.metadata.name}`);
    const binding = parse(r.show('flotilla/rendered', 'bindings/default/web-deployment.yaml'));
    assert.is(binding.metadata.annotations['flotilla.io/observed-rebalancers'], rebalancer.metadata.name);

    // The request stays in Git but was observed: later syncs are steady again.
    writeFileSync(statusFile, freeCapacity({ member1: 1, member2: 15 }));
    r.commit({ 'templates/web.yaml': deployment('3') });
    sync();
    assert.equal(
      split(),
      [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 1 },
      ],
      'steady again',
    );
    assert.not.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), 'Rescheduled');
  } finally {
    r.cleanup();
  }
});

/** member1, and web in namespace shop with its policy there. */
const WEB_IN_SHOP = {
  'clusters/member1.yaml': clusterYaml('member1'),
  'templates/web.yaml': deployment('1').replace('{name: web,', '{name: web, namespace: shop,'),
  'policies/web.yaml': WEB_BY_CAPACITY_POLICY.replace('{name: web}', '{name: web, namespace: shop}'),
};

test('reschedule on a bare repo commits directly; an unknown workload commits nothing and says what exists', () => {
  const r = makeConfigRepo();
  try {
    r.commit(WEB_IN_SHOP);
    const bare = path.join(r.dir, '..', 'bare.git');
    execFileSync('git', ['clone', '-q', '--bare', r.dir, bare], { env: ENV });
    const before = execFileSync('git', ['--git-dir', bare, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    const missing = flotilla('reschedule', 'deployment/web', '--repo', bare);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, 'did you mean: Deployment shop/web');
    const ok = flotilla('reschedule', 'deployment/web', '-n', 'shop', '--repo', bare);
    assert.is(ok.status, 0, ok.stderr);
    const after = execFileSync('git', ['--git-dir', bare, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    assert.is(execFileSync('git', ['--git-dir', bare, 'rev-parse', 'main^'], { encoding: 'utf8' }).trim(), before);
    assert.is.not(after, before);
    const fsck = spawnSync('git', ['--git-dir', bare, 'fsck', '--strict'], { encoding: 'utf8' });
    assert.is(fsck.status, 0, fsck.stderr);
    const sync = flotilla('sync', '--repo', bare);
    assert.is(sync.status, 0, sync.stderr);
    assert.match(
      execFileSync('git', ['--git-dir', bare, 'log', '-1', '--format=%B', 'flotilla/rendered'], { encoding: 'utf8' }),
      'Deployment shop/web by deployment-web-',
    );
  } finally {
    r.cleanup();
  }
});

test('after a render, reschedule finds a workload by the index, or pushed since, and a miss names each near one once', () => {
  const r = makeConfigRepo();
  try {
    r.commit({
      ...WEB_IN_SHOP,
      'templates/gone.yaml': deployment('1').replace('{name: web,', '{name: gone, namespace: shop,'),
    });
    assert.is(flotilla('sync', '--repo', r.dir).status, 0);
    r.commit({
      'templates/api.yaml': deployment('1').replace('{name: web,', '{name: api, namespace: shop,'),
      'templates/gone.yaml': null,
    });
    // Removed since the render: neither found nor offered.
    assert.is(
      flotilla('reschedule', 'deployment/gone', '-n', 'shop', '--repo', r.dir).stderr,
      'flotilla: no template deployment/gone in namespace shop on main; nothing was committed\n',
    );
    const miss = flotilla('reschedule', 'deployment/web', '--repo', r.dir);
    assert.is(miss.status, 1);
    assert.match(miss.stderr, /did you mean: Deployment shop\/web \(use -n\)\n$/);
    const typo = flotilla('reschedule', 'deployment/ap', '-n', 'shop', '--repo', r.dir);
    assert.match(typo.stderr, 'did you mean deployment/api?');
    for (const name of ['web', 'api']) {
      const ok = flotilla('reschedule', `deployment/${name}`, '-n', 'shop', '--repo', r.dir);
      assert.is(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, `the next sync schedules Deployment shop/${name} afresh`);
    }
  } finally {
    r.cleanup();
  }
});

test.run();
