// explain schedules against the same previous result sync and render --out-dir use, so in steady mode its
// answer is theirs, not a fresh split.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { makeConfigRepo } from '../helpers/fleet.ts';
import { freeCapacity, webByCapacityFiles, webDeployment } from './helpers/webByCapacity.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('explain equals sync for a dynamic-weight workload in steady mode, before and after the sync', () => {
  const r = makeConfigRepo();
  try {
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    writeFileSync(statusFile, freeCapacity({ member1: 3, member2: 9 }));
    r.commit(webByCapacityFiles(webDeployment(4)));
    assert.is(flotilla('sync', '--repo', r.dir, '--cluster-status', statusFile).status, 0);
    const branch = () => parse(r.show('flotilla/rendered', 'bindings/default/web-deployment.yaml')).spec.clusters;
    assert.equal(branch(), [
      { name: 'member1', replicas: 1 },
      { name: 'member2', replicas: 3 },
    ]);

    // Capacity turns around and the workload scales 4 → 8: steady mode keeps 1+3 and adds 4 split 9:3.
    writeFileSync(statusFile, freeCapacity({ member1: 9, member2: 3 }));
    r.commit({ 'templates/web.yaml': webDeployment(8) });
    const explain = (...extra: string[]) =>
      flotilla('explain', 'deployment/web', '--repo', r.dir, '--cluster-status', statusFile, ...extra);
    const before = JSON.parse(explain('-o', 'json').stdout);
    assert.equal(
      before.clusters,
      [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 4 },
      ],
      'explain predicts the next sync',
    );
    assert.is(flotilla('sync', '--repo', r.dir, '--cluster-status', statusFile).status, 0);
    assert.equal(branch(), before.clusters, 'sync did what explain said');

    const after = explain();
    assert.is(after.status, 0, after.stderr);
    assert.match(
      after.stdout,
      /member1\s+selected\s+4\s+dynamic weight: weight 9 of 12 \(free replicas\), 1 kept from previous result/,
    );
    assert.match(
      after.stdout,
      /member2\s+selected\s+4\s+dynamic weight: weight 3 of 12 \(free replicas\), 3 kept from previous result/,
    );
    // A fresh split of 8 by 9:3 would give 6:2: that is not what the branch holds.
    assert.equal(JSON.parse(explain('-o', 'json').stdout).clusters, branch());
  } finally {
    r.cleanup();
  }
});

test("explain --out-dir reads the folder's bindings like render --out-dir", () => {
  const r = makeConfigRepo();
  try {
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    const out = path.join(r.dir, '..', 'out');
    writeFileSync(statusFile, freeCapacity({ member1: 3, member2: 9 }));
    r.commit(webByCapacityFiles(webDeployment(4)));
    assert.is(flotilla('render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile).status, 0);
    writeFileSync(statusFile, freeCapacity({ member1: 9, member2: 3 }));
    const withFolder = JSON.parse(
      flotilla(
        'explain',
        'deployment/web',
        '--repo',
        r.dir,
        '--out-dir',
        out,
        '--cluster-status',
        statusFile,
        '-o',
        'json',
      ).stdout,
    );
    assert.equal(
      withFolder.clusters,
      [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 3 },
      ],
      'unchanged replicas: previous result kept',
    );
    const fresh = JSON.parse(
      flotilla('explain', 'deployment/web', '--repo', r.dir, '--cluster-status', statusFile, '-o', 'json').stdout,
    );
    assert.equal(
      fresh.clusters,
      [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 1 },
      ],
      'no previous result anywhere: divided by free capacity',
    );
  } finally {
    r.cleanup();
  }
});

test.run();
