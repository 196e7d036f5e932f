// kubectl's AGE cells: apimachinery's duration.HumanDuration, with the boundaries its own tests pin down.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { humanDuration } from '../../src/time/humanDuration.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

test('humanDuration gives two or three significant figures, as apimachinery HumanDuration does at each boundary', () => {
  const cases: [number, string][] = [
    [-2 * S, '<invalid>'],
    [-2 * S + 1, '0s'],
    [0, '0s'],
    [S - 1, '0s'],
    [70 * S, '70s'],
    [2 * M - 1, '119s'],
    [2 * M, '2m'],
    [2 * M + S, '2m1s'],
    [190 * S, '3m10s'],
    [10 * M - 1, '9m59s'],
    [10 * M + S, '10m'],
    [3 * H - 1, '179m'],
    [3 * H, '3h'],
    [3 * H + 5 * M, '3h5m'],
    [8 * H - 1, '7h59m'],
    [8 * H + 59 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [49 * H, '2d1h'],
    [8 * D - 1, '7d23h'],
    [8 * D + 23 * H, '8d'],
    [367 * D, '367d'],
    [2 * Y - 1, '729d'],
    [2 * Y, '2y'],
    [2 * Y + D - 1, '2y'],
    [2 * Y + D, '2y1d'],
    [3 * Y, '3y'],
    [7 * Y, '7y'],
    [8 * Y - 1, '7y364d'],
    [8 * Y + 364 * D, '8y'],
    [9 * Y, '9y'],
  ];
  for (const [ms, want] of cases) assert.is(humanDuration(ms), want, `${ms} ms`);
});

test.run();
