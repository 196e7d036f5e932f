import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { describeTemplate } from '../../src/views/describeTemplate.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };

test('describe: a cluster leaving by application failover shows its task, and since when its copy is Unhealthy', () => {
  const binding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'web-deployment', namespace: 'default' },
    spec: {
      resource: ref,
      replicas: 2,
      clusters: [{ name: 'member1', replicas: 2 }],
      gracefulEvictionTasks: [
        {
          fromCluster: 'member2',
          replicas: 1,
          purgeMode: 'Gracefully',
          reason: 'ApplicationFailure',
          producer: 'resource-binding-application-failover-controller',
          creationTimestamp: '2026-11-29T15:01:11Z',
          gracePeriodSeconds: 600,
        },
      ],
    },
  } as ResourceBinding;
  const text = describeTemplate({
    ref,
    binding,
    bindingPath: 'bindings/default/web-deployment.yaml',
    index: { file: 'templates/web.yaml', clusters: ['member1', 'member2'], evicting: ['member2'] },
    status: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      conditions: [],
      aggregatedStatus: [
        { clusterName: 'member1', applied: true, health: 'Healthy' },
        { clusterName: 'member2', applied: true, health: 'Unhealthy', unhealthySince: '2026-11-29T15:00:10Z' },
      ],
    },
    history: [],
  });
  assert.match(text, /^\s+member2\s+-\s+true\s+Unhealthy since 2026-11-29T15:00:10Z/m);
  assert.match(text, /^Graceful Eviction Tasks:$/m);
  assert.match(
    text,
    /^\s+member2\s+ApplicationFailure\s+resource-binding-application-failover-controller\s+Gracefully\s+2026-11-29T15:01:11Z/m,
  );
  const steady = describeTemplate({
    ref,
    binding: { ...binding, spec: { ...binding.spec, gracefulEvictionTasks: [] } },
    bindingPath: 'bindings/default/web-deployment.yaml',
    history: [],
  });
  assert.not.match(steady, /Graceful Eviction Tasks/);
});

test.run();
