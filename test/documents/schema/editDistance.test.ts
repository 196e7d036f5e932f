import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { editDistance } from '../../../src/text/editDistance.ts';
import { suggestName } from '../../../src/text/suggestName.ts';

test('editDistance counts insertions, deletions and substitutions', () => {
  assert.is(editDistance('', ''), 0);
  assert.is(editDistance('abc', ''), 3);
  assert.is(editDistance('', 'abc'), 3);
  assert.is(editDistance('clusterAfinity', 'clusterAffinity'), 1);
  assert.is(editDistance('kitten', 'sitting'), 3);
});

test('editDistance counts a swap of two adjacent letters as one edit', () => {
  assert.is(editDistance('plaecment', 'placement'), 1);
  assert.is(editDistance('ab', 'ba'), 1);
});

test('editDistance is symmetric', () => {
  assert.is(
    editDistance('resourceSelector', 'resourceSelectors'),
    editDistance('resourceSelectors', 'resourceSelector'),
  );
});

test('suggestName picks the nearest candidate within max(2, length/3)', () => {
  assert.is(
    suggestName('clusterAfinity', ['clusterAffinity', 'clusterAffinities', 'clusterTolerations']),
    'clusterAffinity',
  );
  assert.is(
    suggestName('replicaScheduleType', ['replicaSchedulingType', 'replicaDivisionPreference']),
    'replicaSchedulingType',
  );
  assert.is(suggestName('Divide', ['Duplicated', 'Divided']), 'Divided');
});

test('suggestName prefers a case-only difference over any typo', () => {
  assert.is(suggestName('ClusterNames', ['clusterNames', 'clusterName']), 'clusterNames');
  assert.is(suggestName('push', ['Push', 'Pull']), 'Push');
});

test('suggestName returns undefined when nothing is close', () => {
  assert.is(suggestName('foo', ['resourceSelectors', 'placement']), undefined);
  assert.is(suggestName('xyz', []), undefined);
});

test.run();
