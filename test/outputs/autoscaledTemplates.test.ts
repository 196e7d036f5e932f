import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ConfigModel, Template } from '../../src/api/model.ts';
import { refKey } from '../../src/api/kinds.ts';
import { formatExplanation } from '../../src/commands/explainCommand.ts';
import {
  autoscaledKey,
  describeAutoscaleMoves,
  withAutoscaledReplicas,
} from '../../src/outputs/autoscaledTemplates.ts';
import { buildOutputMessage } from '../../src/outputs/outputMessage.ts';
import type { CommitInfo } from '../../src/commits/types.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const source = { file: 'templates/web.yaml', line: 1, column: 1 };
const web: Template = {
  ref,
  labels: {},
  manifest: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 1 },
  },
  source,
};
const model = (): ConfigModel => ({
  templates: new Map([[refKey(ref), web]]),
  propagationPolicies: [],
  overridePolicies: [],
  clusterTaintPolicies: [],
  clusters: new Map(),
  rebalancers: [],
  interpreterCustomizations: [],
  held: new Set(),
  unreadableFiles: new Set(),
  problems: [],
});
const decided = new Map([[refKey(ref), { replicas: 4, by: 'FederatedHPA default/web' }]]);

test("a decision gives the template its replicas and says whose; Git's template is left alone", () => {
  const m = withAutoscaledReplicas(model(), decided);
  const t = m.templates.get(refKey(ref))!;
  assert.equal(t.manifest.spec, { replicas: 4 });
  assert.is(t.autoscaledBy, 'FederatedHPA default/web: 4 replica(s), 1 in Git');
  assert.equal(web.manifest.spec, { replicas: 1 }, 'the source model is not mutated');
  assert.is(withAutoscaledReplicas(model(), new Map()).templates.get(refKey(ref)), web);
});

test("a count recorded against another Git count is Git's edit's to override: the template keeps Git's", () => {
  const held = withAutoscaledReplicas(
    model(),
    new Map([[refKey(ref), { replicas: 4, by: 'FederatedHPA default/web', gitReplicas: 1 }]]),
  );
  assert.equal(held.templates.get(refKey(ref))!.manifest.spec, { replicas: 4 }, 'Git still says 1: the decision holds');
  const edited = withAutoscaledReplicas(
    model(),
    new Map([[refKey(ref), { replicas: 4, by: 'FederatedHPA default/web', gitReplicas: 3 }]]),
  );
  assert.is(edited.templates.get(refKey(ref)), web, 'Git moved from 3 to 1 since: Git wins');
  assert.is.not(
    autoscaledKey(new Map([[refKey(ref), { replicas: 4, by: 'x', gitReplicas: 1 }]])),
    autoscaledKey(new Map([[refKey(ref), { replicas: 4, by: 'x', gitReplicas: 2 }]])),
    'a record against another Git count renders again',
  );
});

test('the decisions key is empty without decisions and changes with the count', () => {
  assert.is(autoscaledKey(new Map()), '');
  const four = autoscaledKey(decided);
  assert.match(four, /^[0-9a-f]{16}$/);
  assert.is.not(autoscaledKey(new Map([[refKey(ref), { replicas: 3, by: 'FederatedHPA default/web' }]])), four);
});

test('explain says the replicas are governed by the FederatedHPA', () => {
  const text = formatExplanation(
    {
      ref,
      policyReason: 'selected by name',
      clusters: [{ name: 'member1', replicas: 4 }],
      autoscaledBy: 'FederatedHPA default/web: 4 replica(s), 1 in Git',
    },
    ['member1'],
  );
  assert.match(
    text,
    'replicas: governed by FederatedHPA default/web: 4 replica(s), 1 in Git (status branch), divided below',
  );
});

test('a render for a new decision says which autoscaler moved which workload, not that the cluster state changed', () => {
  const by = 'FederatedHPA default/web';
  const before = new Map([[refKey(ref), { replicas: 2, by }]]);
  const after = new Map([[refKey(ref), { replicas: 4, by }]]);
  const moves = describeAutoscaleMoves(before, after);
  assert.equal(moves, ['FederatedHPA default/web: Deployment default/web 2 -> 4 replicas']);
  assert.equal(describeAutoscaleMoves(after, after), []);
  assert.equal(describeAutoscaleMoves(new Map(), after), [
    'FederatedHPA default/web: Deployment default/web 4 replicas',
  ]);
  assert.equal(
    describeAutoscaleMoves(new Map(), after, () => 2),
    ['FederatedHPA default/web: Deployment default/web 2 (Git) -> 4 replicas'],
    "a first decision moves from Git's count",
  );
  assert.equal(describeAutoscaleMoves(after, new Map()), [
    'FederatedHPA default/web no longer decides: Deployment default/web back to the replicas in Git',
  ]);
  const commit = { oid: 'a'.repeat(40), message: 'web: a FederatedHPA\n', author: { name: 'Ada', email: 'a@x' } };
  const message = buildOutputMessage(
    commit as CommitInfo,
    {
      member1: {
        counts: { added: 0, changed: 1, removed: 0 },
        added: [],
        changed: ['clusters/member1/default/deployment.apps_web.yaml'],
        removed: [],
      },
    },
    [],
    {
      rerender: true,
      failover: [],
      clusters: new Map(),
      state: { key: '', check: undefined, evictions: 0 },
      autoscaleMoves: moves,
    },
  );
  const [subject, , ...body] = message.split('\n');
  assert.is(subject, 'Autoscaled FederatedHPA default/web: Deployment default/web 2 -> 4 replicas');
  assert.ok(body.includes('  FederatedHPA default/web: Deployment default/web 2 -> 4 replicas'), message);
  assert.not.match(message, 'for a change of cluster state');
});

test.run();
