import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatLabelSelector } from '../../src/labels/formatLabelSelector.ts';

test('a label selector reads as the query string Kubernetes writes: requirements by key, values sorted', () => {
  assert.is(
    formatLabelSelector({
      matchLabels: { tier: 'web', app: 'shop' },
      matchExpressions: [
        { key: 'zone', operator: 'In', values: ['b', 'a'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'owner', operator: 'Exists' },
      ],
    }),
    'app=shop,!canary,env notin (dev),owner,tier=web,zone in (a,b)',
  );
  assert.is(formatLabelSelector({}), '', 'empty: everything');
});

test.run();
