// What a pod template asks of a cluster's nodes, case by case, as Karmada's helper.GenerateReplicaRequirements and
// GenerateNodeClaimByPodSpec build it (cases after pkg/util/helper/binding_test.go at f8fdd02).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { replicaRequirements } from '../../src/interpreters/replicaRequirements.ts';

const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'foo', operator: 'Exists' }] }] };

test('replica requirements: none for an empty template; the node claim and the requests, each when there is one', () => {
  // TestGenerateReplicaRequirements.
  assert.equal(replicaRequirements({}), {}, 'empty template');
  assert.equal(
    replicaRequirements({
      nodeSelector: { foo: 'foo1' },
      tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
    }),
    {
      nodeClaim: {
        nodeSelector: { foo: 'foo1' },
        tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }],
        hardNodeAffinity: required,
      },
    },
    'node claim only',
  );
  assert.equal(
    replicaRequirements({ containers: [{ name: 'app', resources: { limits: { cpu: '200m' } } }] }),
    { resourceRequest: { cpu: '200m' } },
    'a limit stands in for the missing request',
  );
});

test('a node claim holds the node selector, the tolerations and the required node affinity the spec sets', () => {
  // TestGenerateNodeClaimByPodSpec.
  const claim = (spec: Record<string, unknown>) => replicaRequirements(spec).nodeClaim;
  assert.is(claim({}), undefined, 'empty spec');
  assert.equal(claim({ nodeSelector: { disktype: 'ssd' } }), { nodeSelector: { disktype: 'ssd' } });
  assert.equal(claim({ tolerations: [{ key: 'key1', operator: 'Exists' }] }), {
    tolerations: [{ key: 'key1', operator: 'Exists' }],
  });
  assert.equal(claim({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } } }), {
    hardNodeAffinity: required,
  });
  // Only the required node affinity counts: a preferred one alone claims nothing.
  assert.is(
    claim({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: required.nodeSelectorTerms[0] }],
        },
      },
    }),
    undefined,
  );
  // A null affinity decodes to nil in Go: no claim, as without one.
  assert.is(claim({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: null } } }), undefined);
  assert.is(claim({ nodeSelector: null, tolerations: null }), undefined);
});

test('the node claim holds tolerations and node affinity as Go marshals their types: empty omitempty fields left out, order kept', () => {
  const claim = replicaRequirements({
    tolerations: [
      { effect: 'NoSchedule', key: 'foo', operator: 'Exists', value: '' },
      { key: '', operator: '', value: '', effect: '', tolerationSeconds: null },
      { key: 'bar', tolerationSeconds: 0 },
    ],
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchFields: [], matchExpressions: [{ operator: 'Exists', key: 'zone', values: [] }] },
            { matchExpressions: null, matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
            {},
          ],
        },
      },
    },
  }).nodeClaim;
  assert.equal(claim, {
    tolerations: [{ effect: 'NoSchedule', key: 'foo', operator: 'Exists' }, {}, { key: 'bar', tolerationSeconds: 0 }],
    hardNodeAffinity: {
      nodeSelectorTerms: [
        { matchExpressions: [{ operator: 'Exists', key: 'zone' }] },
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
        {},
      ],
    },
  });
  assert.equal(Object.keys(claim?.tolerations?.[0] as object), ['effect', 'key', 'operator']);
});

test.run();
