import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalQuantity, formatQuantity, parseQuantity } from '../../../src/quantities/canonicalQuantity.ts';
import { defaultObject } from '../../../src/members/resources/defaultObject.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const canonical = (text: string) => formatQuantity(parseQuantity(text)!);

test('decimal quantities read back with the largest SI suffix that keeps an integer', () => {
  const cases: [string, string][] = [
    ['0.5', '500m'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['0.1', '100m'],
    ['2000', '2k'],
    ['1500', '1500'],
    ['1000k', '1M'],
    ['129M', '129M'],
    ['128974848', '128974848'],
    ['0', '0'],
    ['0m', '0'],
    ['100u', '100u'],
    ['-0.5', '-500m'],
  ];
  for (const [input, output] of cases) assert.is(canonical(input), output, input);
});

test('binary quantities keep binary suffixes when exact and 1024 or more, else turn decimal', () => {
  const cases: [string, string][] = [
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['1.1Ki', '1126400m'],
    ['1000Ki', '1000Ki'],
    ['1048576Ki', '1Gi'],
  ];
  for (const [input, output] of cases) assert.is(canonical(input), output, input);
});

test('exponent quantities keep exponent notation on a multiple of 3', () => {
  assert.is(canonical('129e6'), '129e6');
  assert.is(canonical('12e1'), '120');
  assert.is(canonical('1E3'), '1e3');
});

test('not a quantity: left as it was; numbers become canonical strings', () => {
  for (const text of ['', 'abc', '1.5.3', '1 Gi', 'Mi', '5x']) assert.is(parseQuantity(text), undefined, text);
  assert.is(canonicalQuantity('lots', true), 'lots');
  assert.is(canonicalQuantity(2, true), '2');
  assert.is(canonicalQuantity(0.25, true), '250m');
  // ResourceLists round up to milli; other quantities keep nano precision.
  assert.is(canonicalQuantity('100u', true), '1m');
  assert.is(canonicalQuantity('100u', false), '100u');
  assert.is(canonicalQuantity('0.0000000001', false), '1n');
});

test('requests and limits in pod templates, PVC storage and quotas are stored canonical', () => {
  const deployment: KubeObject = {
    metadata: { name: 'd' },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'c',
              image: 'x:1',
              resources: { requests: { cpu: 0.5, memory: '1024Mi' }, limits: { cpu: '1000m' } },
            },
          ],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '1024Mi' } }],
        },
      },
    },
  };
  defaultObject('Deployment', deployment, () => '');
  const container = deployment.spec.template.spec.containers[0];
  assert.equal(container.resources, { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1' } });
  assert.is(deployment.spec.template.spec.volumes[0].emptyDir.sizeLimit, '1Gi');
  const claim: KubeObject = { metadata: { name: 'c' }, spec: { resources: { requests: { storage: '10240Mi' } } } };
  defaultObject('PersistentVolumeClaim', claim, () => '');
  assert.is(claim.spec.resources.requests.storage, '10Gi');
  const range: KubeObject = {
    metadata: { name: 'l' },
    spec: { limits: [{ type: 'Container', max: { cpu: '2000m' }, min: { memory: '64Mi' } }] },
  };
  defaultObject('LimitRange', range, () => '');
  assert.equal(range.spec.limits[0], {
    type: 'Container',
    max: { cpu: '2' },
    min: { memory: '64Mi' },
    default: { cpu: '2' },
    defaultRequest: { cpu: '2', memory: '64Mi' },
  });
});

test.run();
