import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clusterCommand } from '../../src/commands/clusterCommand.ts';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { makeFleetRepo, runReadCommand } from './helpers/fleetRepo.ts';

let repo: TempRepo;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  const quiet = {
    out: () => undefined,
    err: () => undefined,
    env: { GIT_AUTHOR_NAME: 'Olga Ops', GIT_AUTHOR_EMAIL: 'olga@example.com' },
    now: () => new Date((1_700_000_100 + 1800) * 1000),
  };
  await clusterCommand(
    'taint',
    ['member1', 'dedicated=gpu:NoSchedule', '--repo', repo.path, '--reason', 'GPU nodes only'],
    quiet,
  );
});
test.after(() => repo.cleanup());

const describe = (...args: string[]) => runReadCommand(describeCommand, repo.path, NOW, args);

test('describe cluster: registration, taints, conditions, resources, what is placed there, commits as events', async () => {
  const r = await describe('cluster', 'member1');
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.ok(lines.includes('Name:                 member1'));
  assert.ok(lines.includes('Taints:               dedicated=gpu:NoSchedule'));
  assert.ok(lines.includes('Unschedulable:        false'));
  assert.ok(lines.includes('Kubernetes Version:   v1.32.0'));
  assert.ok(lines.includes('Nodes:                3 ready of 3'));
  assert.match(
    r.out,
    /Conditions:\n  Type +Status +LastTransitionTime +Reason +Message\n  Ready +True +2026-02-01T00:00:00Z +ClusterReady/,
  );
  assert.match(
    r.out,
    /Resource Summary:\n  Resource +Allocatable +Allocated +Allocating\n  cpu +12 +500m +0\n  memory +48Gi +0 +0/,
  );
  assert.match(r.out, /Applied: +rendered [0-9a-f]{12} \(source [0-9a-f]{12}\); up to date/);
  assert.match(r.out, /Placed Here \(1\):\n  Namespace +Kind +Name\n  default +Deployment +nginx/);
  assert.match(
    r.out,
    /Events:\n  Type +Reason +Age +From +Message\n  ---- +------ +---- +---- +-------\n  Normal +Committed +30m +Olga Ops +taint member1: GPU nodes only \([0-9a-f]{12}\)\n  Normal +Committed +60m +Ada Author +Add nginx and three members/,
  );
});

test('describe deploy / rb: placement, per-cluster replicas and status, conditions, history', async () => {
  const r = await describe('deploy', 'nginx');
  assert.is(r.code, 0, r.err);
  assert.match(
    r.out,
    /^Name: +nginx\nNamespace: +default\nKind: +Deployment \(apps\/v1\)\nSource File: +templates\/deployment\.yaml\nBinding: +ResourceBinding default\/nginx-deployment/,
  );
  assert.match(r.out, /Policy: +PropagationPolicy default\/nginx-propagation\n/);
  assert.match(
    r.out,
    /Clusters:\n  Cluster +Replicas +Applied +Health +Message\n  member1 +1 +true +Healthy\n  member2 +1 +true +Healthy\n/,
  );
  assert.match(r.out, /FullyApplied +True/);
  assert.match(r.out, /Aggregated Status:\n  replicas: 2\n/);
  assert.match(
    r.out,
    /Events:\n  Date +Source +PR +Author +Clusters +Message\n  2023-11-15T03:43:20\+05:30 +[0-9a-f]{12} +- +Ada Author +member1 added, member2 added, binding added +Add nginx and three members/,
  );
  const rb = await describe('rb', 'nginx-deployment');
  assert.is(rb.out, r.out, 'the binding describes the same object');
});

test("describe of something missing exits 1 with kubectl's words", async () => {
  const r = await describe('cluster', 'member9');
  assert.is(r.code, 1);
  assert.is(r.err, 'Error from server (NotFound): clusters.cluster.karmada.io "member9" not found\n');
  assert.is(
    (await describe('deploy', 'nope')).err,
    'Error from server (NotFound): deployments.apps "nope" not found\n',
  );
  assert.is(
    (await describe('rb', 'nope')).err,
    'Error from server (NotFound): resourcebindings.work.karmada.io "nope" not found\n',
  );
  const unknown = await describe('foo', 'bar');
  assert.is(unknown.code, 1);
  assert.is(unknown.err.split('\n')[0], 'error: the server doesn\'t have a resource type "foo"');
});

test.run();
