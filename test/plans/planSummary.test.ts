import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planJson } from '../../src/plans/renderPlanJson.ts';
import { renderPlanMarkdown } from '../../src/plans/renderPlanMarkdown.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import type { ClusterPlan, PlannedObject } from '../../src/plans/types.ts';
import { emptyPlan } from './helpers/emptyPlan.ts';

const plan = (clusters: Record<string, ClusterPlan>) => emptyPlan({ clusters });

const objects = (cluster: string, n: number, kind: string): PlannedObject[] =>
  Array.from({ length: n }, (_, i) => ({
    ref: `v1/ConfigMap/default/${kind}${i}`,
    path: `clusters/${cluster}/default/configmap_${kind}${i}.yaml`,
    diff: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${kind}\n+${kind}${i}\n`,
  }));

const three = plan({
  m1: { added: objects('m1', 2, 'a'), changed: objects('m1', 1, 'c'), removed: [], released: objects('m1', 3, 'r') },
  m2: { added: objects('m2', 1, 'a'), changed: objects('m2', 1, 'c'), removed: objects('m2', 1, 'd'), released: [] },
  m3: { added: [], changed: [], removed: [], released: objects('m3', 1, 'r') },
});

test('a plan opens with the counts over every cluster, as Terraform does, in the text and the PR comment', () => {
  const line = 'Plan: 3 objects to add, 2 to change, 1 to remove, 4 released on 3 clusters.';
  assert.is(renderPlanText(three).split('\n')[1], line);
  assert.is(renderPlanMarkdown(three).split('\n')[2], line);
  const one = plan({ m1: { added: objects('m1', 1, 'a'), changed: [], removed: [], released: [] } });
  assert.is(renderPlanText(one).split('\n')[1], 'Plan: 1 object to add, 0 to change, 0 to remove on 1 cluster.');
  assert.is(renderPlanText(plan({})).split('\n')[1], 'No change on any cluster.');
});

test('the JSON contract gains the counts, in total and per cluster, beside the fields it had', () => {
  const json = planJson(three);
  assert.equal(Object.keys(json), ['base', 'head', 'errors', 'clusters', 'replicas', 'held', 'summary']);
  assert.equal(json.summary, { add: 3, change: 2, remove: 1, release: 4, clusters: 3 });
  assert.equal(Object.keys(json.clusters.m2!), ['added', 'changed', 'removed', 'released', 'summary']);
  assert.equal(json.clusters.m2!.summary, { add: 1, change: 1, remove: 1, release: 0 });
  assert.equal(planJson(plan({})).summary, { add: 0, change: 0, remove: 0, release: 0, clusters: 0 });
});

test.run();
