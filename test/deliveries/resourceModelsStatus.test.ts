// The status pass grades each member's nodes by the Cluster's resource models (Karmada's cluster status controller,
// CustomizedClusterResourceModeling): a Cluster's own models travel in .flotilla/clusters.json, one without gets
// Karmada's nine defaults. Emulated members on loopback (three nodes of 8 cpu and 32Gi each), reconcileOnce.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reconcileOnce } from '../../src/reconcile.ts';
import { clusterYaml } from '../helpers/fleet.ts';
import { startMemberFleet, type MemberFleet } from './helpers/e2e.ts';

let fleet: MemberFleet | undefined;
test.after(async () => {
  await fleet?.cleanup();
});

// Two grades: below 4 cpu, and 4 cpu or more.
const OWN_MODELS = `  resourceModels:
    - grade: 1
      ranges: [{name: cpu, min: '4', max: '64'}]
    - grade: 0
      ranges: [{name: cpu, min: '0', max: '4'}]
`;

const schema = (name: string) =>
  new Ajv({ strict: false }).compile(
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../docs/schemas/${name}.schema.json`), 'utf8')),
  );

test("each member's nodes are counted per grade of its Cluster's models, its own or Karmada's defaults", async () => {
  fleet = await startMemberFleet(
    ['member1', 'member2'],
    {
      'clusters/member1.yaml': clusterYaml('member1') + OWN_MODELS,
      'clusters/member2.yaml': clusterYaml('member2'),
    },
    'two members',
  );
  const f = fleet;
  await reconcileOnce({
    repo: f.repo,
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
    clusters: f.kubes,
    render: true,
    log: () => {},
  });
  const registered = JSON.parse(f.config.git('show', 'flotilla/rendered:.flotilla/clusters.json')) as {
    clusters: unknown[];
  };
  const validateClusters = schema('rendered-clusters');
  assert.ok(validateClusters(registered), JSON.stringify(validateClusters.errors));
  assert.equal(registered.clusters, [
    {
      name: 'member1',
      syncMode: 'Push',
      resourceModels: [
        { grade: 0, ranges: [{ name: 'cpu', min: '0', max: '4' }] },
        { grade: 1, ranges: [{ name: 'cpu', min: '4', max: '9223372036854775807' }] },
      ],
    },
    { name: 'member2', syncMode: 'Push' },
  ]);

  const validateCluster = schema('status-cluster');
  const status = (name: string) => {
    const file = parse(f.config.git('show', `flotilla/status:clusters/${name}.yaml`)) as {
      status: { resourceSummary: { allocatableModelings: { grade: number; count: number }[] } };
    };
    assert.ok(validateCluster(file), JSON.stringify(validateCluster.errors));
    return file.status.resourceSummary.allocatableModelings;
  };
  assert.equal(status('member1'), [
    { grade: 0, count: 0 },
    { grade: 1, count: 3 },
  ]);
  // 8 cpu reach grade 4 (8 cores), 32Gi only grade 3 (32Gi): each node is a grade-3 node.
  assert.equal(
    status('member2').filter((m: { count: number }) => m.count > 0),
    [{ grade: 3, count: 3 }],
  );
});

test.run();
