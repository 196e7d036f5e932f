// FullyApplied on the status branch is judged against what the render targeted (the rendered index), as Karmada
// judges it against the binding's clusters: one member's report is not the whole fleet's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { ObjectRef } from '../../src/api/kinds.ts';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import type { ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import {
  configMap,
  configMapPolicy,
  deployment,
  makeConfigRepoWith,
  MEMBERS,
  RENDERED_REF,
  type ConfigRepo,
  weightedPolicy,
} from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' };
const applied = (cluster: string): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results: [{ ref: settings, action: 'created', message: 'created', live: { ...settings, data: { k: 'v' } } }],
    inventory: [settings],
    previousInventory: [],
    writes: 1,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});

test('a template placed on two members is FullyApplied once both report it applied, not when the first does', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cms.yaml': configMapPolicy(['member1', 'member2']),
      'templates/settings.yaml': configMap('settings', { k: 'v' }),
    },
    'settings on two members',
  );
  const repo = await openRepo(r.dir);
  const report = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  const renderedCommit = report.outputCommit!;
  const condition = async () => {
    const status = r.git('rev-parse', 'refs/heads/flotilla/status');
    return parse(r.show(status, templateStatusPath(settings))).conditions[0];
  };
  await writeStatus({ repo, reports: [applied('member1')], renderedCommit });
  const first = await condition();
  assert.is(first.status, 'False');
  assert.is(first.message, 'Failed to apply all works, see status.aggregatedStatus for details');
  await writeStatus({ repo, reports: [applied('member2')], renderedCommit });
  assert.is((await condition()).status, 'True');
});

// Karmada's detector sees an autoscaling/v1 HPA at autoscaling/v2 and its Work carries v2, so the member object its
// status controller reads is v2: reflected and aggregated by the v2 rules, judged against the v2 binding's clusters.
test('an HPA written as autoscaling/v1 has the status of its autoscaling/v2 template, judged against that binding', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/hpa.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: hpa, namespace: default}
spec:
  resourceSelectors:
    - {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, name: web}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
      'templates/hpa.yaml': `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
`,
    },
    'an autoscaling/v1 HPA on two members',
  );
  const repo = await openRepo(r.dir);
  const report = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  const hpa = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', namespace: 'default', name: 'web' };
  const live = {
    ...hpa,
    metadata: { name: 'web', namespace: 'default' },
    status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 80 },
  };
  const report1: ClusterReport = {
    cluster: 'member1',
    delivery: {
      cluster: 'member1',
      results: [{ ref: hpa, action: 'created', message: 'created', live }],
      inventory: [hpa],
      previousInventory: [],
      writes: 1,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  };
  await writeStatus({ repo, reports: [report1], renderedCommit: report.outputCommit! });
  const file = parse(r.show(r.git('rev-parse', 'refs/heads/flotilla/status'), templateStatusPath(hpa)));
  assert.is(file.apiVersion, 'autoscaling/v2');
  assert.equal(file.aggregatedStatus[0].status, { currentMetrics: null, currentReplicas: 2, desiredReplicas: 3 });
  // HorizontalPodAutoscalerStatus writes currentMetrics without omitempty: Karmada's typed write-back keeps it, null.
  assert.equal(file.status, { currentReplicas: 2, desiredReplicas: 3, currentMetrics: null });
  // member2, a target of the v2 binding, has not reported: listed, not applied.
  assert.is(file.conditions[0].status, 'False');
  assert.equal(
    file.aggregatedStatus.map((i: { clusterName: string; applied: boolean }) => [i.clusterName, i.applied]),
    [
      ['member1', true],
      ['member2', false],
    ],
  );
});

// helper/workstatus.go worksFullyApplied: a binding scheduled to no cluster ("not scheduled" short path) is not fully
// applied; once its Works are deleted, the rb status controller writes an empty aggregatedStatus and FullyApplied False.
test('a template whose binding targets no cluster any more keeps its status file: FullyApplied False, no items', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1', 'member2']),
      'templates/nginx.yaml': deployment('nginx', 2),
    },
    'nginx on two members',
  );
  const repo = await openRepo(r.dir);
  const nginx = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' };
  const report = (cluster: string, result: ApplyResult, previousInventory: ObjectRef[]): ClusterReport => ({
    cluster,
    delivery: {
      cluster,
      results: [result],
      inventory: result.prune ? [] : [nginx],
      previousInventory,
      writes: 1,
      notes: [],
      durationMs: 0,
    } satisfies ClusterDelivery,
  });
  const placed = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  await writeStatus({
    repo,
    reports: ['member1', 'member2'].map((c) => report(c, { ref: nginx, action: 'created', message: 'created' }, [])),
    renderedCommit: placed.outputCommit!,
  });
  r.commit({ 'templates/nginx.yaml': deployment('nginx', 0) }, 'nginx scaled to 0: no cluster');
  const unplaced = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: RENDERED_REF });
  await writeStatus({
    repo,
    reports: ['member1', 'member2'].map((c) =>
      report(c, { ref: nginx, action: 'pruned', message: 'deleted', prune: true }, [nginx]),
    ),
    renderedCommit: unplaced.outputCommit!,
  });
  const file = parse(r.show(r.git('rev-parse', 'refs/heads/flotilla/status'), templateStatusPath(nginx)));
  assert.equal(file.aggregatedStatus, []);
  const { lastTransitionTime: _, ...condition } = file.conditions[0];
  assert.equal(condition, {
    type: 'FullyApplied',
    status: 'False',
    reason: 'FullyAppliedFailed',
    message: 'Failed to apply all works, see status.aggregatedStatus for details',
  });
});

test.run();
