import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { alignTabs } from '../../src/text/alignTabs.ts';

test('a column is as wide as its widest cell plus two over a run of lines that have it; a line without one ends the run', () => {
  assert.is(
    alignTabs(['Name:\tweb', 'Namespace:\tshop', 'Spec:', '  Replicas:\t3', '  Selector Labels:\tapp=web'].join('\n')),
    ['Name:       web', 'Namespace:  shop', 'Spec:', '  Replicas:         3', '  Selector Labels:  app=web'].join('\n'),
  );
});

test('text after the last tab is never padded, and a second column aligns within the lines of the first', () => {
  assert.is(
    alignTabs(['Type\tReason\tMessage', 'Normal\tCommitted\tok', 'x'].join('\n')),
    ['Type    Reason     Message', 'Normal  Committed  ok', 'x'].join('\n'),
  );
});

test.run();
