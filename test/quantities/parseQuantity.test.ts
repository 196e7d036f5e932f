import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  parseQuantity,
  quantityMilliValue,
  quantityValue,
  subtractQuantity,
} from '../../src/quantities/parseQuantity.ts';

const cases: [text: string | number, value: bigint, milli: bigint][] = [
  ['2', 2n, 2000n],
  ['500m', 1n, 500n],
  ['1500m', 2n, 1500n],
  ['0.5', 1n, 500n],
  ['4Gi', 4n * 1024n ** 3n, 4n * 1024n ** 3n * 1000n],
  ['512Mi', 512n * 1024n ** 2n, 512n * 1024n ** 2n * 1000n],
  ['1e3', 1000n, 1000000n],
  ['1E3', 1000n, 1000000n],
  ['2k', 2000n, 2000000n],
  ['1M', 1000000n, 1000000000n],
  ['1E', 10n ** 18n, 10n ** 21n],
  ['100n', 1n, 1n],
  ['.5', 1n, 500n],
  ['+3', 3n, 3000n],
  [110, 110n, 110000n],
  [0.25, 1n, 250n],
];
for (const [text, value, milli] of cases) {
  test(`parseQuantity(${JSON.stringify(text)}) rounds up like resource.Quantity`, () => {
    const q = parseQuantity(text);
    assert.ok(q);
    if (q) {
      assert.is(quantityValue(q), value);
      assert.is(quantityMilliValue(q), milli);
    }
  });
}

for (const bad of ['', 'abc', '1x', '1e', 'Gi', '1.2.3', '--1']) {
  test(`parseQuantity rejects ${JSON.stringify(bad)}`, () => {
    assert.is(parseQuantity(bad), undefined);
  });
}

test('subtraction is exact, so 0.1 - 100m is zero', () => {
  const q = subtractQuantity(parseQuantity('0.1')!, parseQuantity('100m')!);
  assert.is(quantityMilliValue(q), 0n);
  const neg = subtractQuantity(parseQuantity('1')!, parseQuantity('1500m')!);
  assert.is(quantityMilliValue(neg), -500n);
  assert.is(quantityValue(neg), 0n, 'rounds up toward zero for a negative half');
});

test.run();
