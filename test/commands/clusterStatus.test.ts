import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { makeConfigRepo, MEMBERS } from '../helpers/fleet.ts';
import { WEB_BY_CAPACITY_POLICY, webDeployment } from './helpers/webByCapacity.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const status = (name: string, cpuFree: number) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
status:
  conditions: [{type: Ready, status: "True"}]
  apiEnablements: [{groupVersion: apps/v1, resources: [{name: deployments, kind: Deployment}]}]
  resourceSummary:
    allocatable: {cpu: "${cpuFree + 2}", pods: "110"}
    allocated: {cpu: "2", pods: "5"}
`;

test('render --cluster-status divides by free capacity, and a scale-up splits only the new replicas (steady mode)', () => {
  const r = makeConfigRepo();
  try {
    const statusFile = path.join(r.dir, '..', 'status.yaml');
    writeFileSync(statusFile, `${status('member1', 3)}---\n${status('member2', 9)}---\n${status('member3', 50)}`);
    const out = path.join(r.dir, '..', 'out');
    r.commit({ ...MEMBERS, 'templates/web.yaml': webDeployment(4), 'policies/web.yaml': WEB_BY_CAPACITY_POLICY });
    const run = () =>
      spawnSync(process.execPath, [BIN, 'render', '--repo', r.dir, '--out-dir', out, '--cluster-status', statusFile], {
        encoding: 'utf8',
      });
    let res = run();
    assert.is(res.status, 0, res.stderr);
    const clusters = () =>
      parse(readFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), 'utf8')).spec.clusters;
    assert.equal(
      clusters(),
      [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 3 },
      ],
      'fresh: 4 split by free capacity 3:9',
    );

    // A previous result placed by hand, as Karmada would hold it; scaling 4 → 8 adds 4 split by free capacity.
    const previous = parse(readFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), 'utf8'));
    previous.spec.clusters = [
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 1 },
    ];
    mkdirSync(path.join(out, 'bindings/default'), { recursive: true });
    writeFileSync(path.join(out, 'bindings/default/web-deployment.yaml'), JSON.stringify(previous));
    r.commit({ 'templates/web.yaml': webDeployment(8) });
    res = run();
    assert.is(res.status, 0, res.stderr);
    assert.equal(
      clusters(),
      [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 4 },
      ],
      'steady: previous 3+1 plus 4 new split 1:3',
    );
  } finally {
    r.cleanup();
  }
});

test.run();
