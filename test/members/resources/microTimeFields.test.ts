// metav1.MicroTime as kube-apiserver reads and writes it: Go's time.Parse with RFC3339Micro (exactly six fractional
// digits and a zone), re-encoded in UTC. The expected texts are what Go's time package prints for the same inputs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeMicroTimes, parseMicroTime } from '../../../src/members/resources/microTimeFields.ts';

const LAYOUT = '"2006-01-02T15:04:05.000000Z07:00"';
const cannot = (text: string, value: string, elem: string) =>
  `parsing time "${text}" as ${LAYOUT}: cannot parse "${value}" as "${elem}"`;

test('a MicroTime with six fractional digits and any zone decodes to its UTC form', () => {
  for (const [text, utc] of [
    ['2024-01-02T03:04:05.123456Z', '2024-01-02T03:04:05.123456Z'],
    ['2024-01-02T05:04:05.123000+02:00', '2024-01-02T03:04:05.123000Z'],
    ['2024-01-01T00:30:00.000001+01:00', '2023-12-31T23:30:00.000001Z'],
    ['2024-01-02T3:04:05.000000Z', '2024-01-02T03:04:05.000000Z'],
    ['2024-01-02T03:04:05,123456Z', '2024-01-02T03:04:05.123456Z'],
  ])
    assert.equal(parseMicroTime(text!), { ok: true, value: utc }, text);
});

test('a MicroTime Go cannot parse with RFC3339Micro is refused with the words of its parse error', () => {
  const cases: [string, string][] = [
    ['2024-01-02T03:04:05Z', cannot('2024-01-02T03:04:05Z', 'Z', '.000000')],
    ['2024-01-02T03:04:05+00:00', cannot('2024-01-02T03:04:05+00:00', '+00:00', '.000000')],
    ['2024-01-02T03:04:05.123Z', cannot('2024-01-02T03:04:05.123Z', '.123Z', '.000000')],
    ['2024-01-02T03:04:05.123456789Z', cannot('2024-01-02T03:04:05.123456789Z', '789Z', 'Z07:00')],
    ['2024-01-02T03:04:05.123000', cannot('2024-01-02T03:04:05.123000', '', 'Z07:00')],
    ['2024-01-02 03:04:05.000000Z', cannot('2024-01-02 03:04:05.000000Z', ' 03:04:05.000000Z', 'T')],
    ['2024-1-02T03:04:05.000000Z', cannot('2024-1-02T03:04:05.000000Z', '1-02T03:04:05.000000Z', '01')],
    ['yesterday', cannot('yesterday', 'yesterday', '2006')],
    ['2024-13-02T03:04:05.000000Z', 'parsing time "2024-13-02T03:04:05.000000Z": month out of range'],
    ['2024-02-30T03:04:05.000000Z', 'parsing time "2024-02-30T03:04:05.000000Z": day out of range'],
    ['2024-01-02T24:04:05.000000Z', 'parsing time "2024-01-02T24:04:05.000000Z": hour out of range'],
  ];
  for (const [text, error] of cases) assert.equal(parseMicroTime(text), { ok: false, error }, text);
});

test("a Lease's and an Event's MicroTimes are re-encoded in place; one that cannot be decoded leaves the object as it was", () => {
  const lease = { spec: { acquireTime: '2024-01-02T05:04:05.000000+02:00', renewTime: null, holderIdentity: 'a' } };
  assert.is(decodeMicroTimes('coordination.k8s.io', 'Lease', lease), undefined);
  assert.equal(lease.spec, { acquireTime: '2024-01-02T03:04:05.000000Z', renewTime: null, holderIdentity: 'a' });

  const event = { eventTime: '2024-01-02T05:04:05.000001+02:00', series: { lastObservedTime: '2024-01-02T03:04:05Z' } };
  assert.is(decodeMicroTimes('', 'Event', event), cannot('2024-01-02T03:04:05Z', 'Z', '.000000'));
  assert.is(event.eventTime, '2024-01-02T05:04:05.000001+02:00');

  assert.is(
    decodeMicroTimes('coordination.k8s.io', 'Lease', { spec: { renewTime: 1704164645 } }),
    'json: cannot unmarshal number into Go value of type string',
  );
  assert.is(decodeMicroTimes('example.com', 'Lease', { spec: { renewTime: 'soon' } }), undefined);
});

test.run();
