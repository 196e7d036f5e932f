import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatExplanation } from '../../src/commands/explainCommand.ts';

const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };

test("explain says a workload's replicas are governed by the HPA that scales it on each member", () => {
  const text = formatExplanation(
    {
      ref: web,
      policy: 'PropagationPolicy default/web',
      policyReason: 'selected by name',
      clusters: [{ name: 'member1', replicas: 2 }],
      scaledBy: ['autoscaling/v2/HorizontalPodAutoscaler/default/web'],
    },
    ['member1'],
  );
  assert.match(
    text,
    /replicas: governed by HorizontalPodAutoscaler.*web on each member \(resourcetemplate\.karmada\.io\/retain-replicas\)/,
  );
  const plain = formatExplanation(
    {
      ref: web,
      policy: 'PropagationPolicy default/web',
      policyReason: 'selected by name',
      clusters: [{ name: 'member1', replicas: 2 }],
    },
    ['member1'],
  );
  assert.not.match(plain, /governed by/);
});

test.run();
