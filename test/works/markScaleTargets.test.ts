import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Template } from '../../src/api/model.ts';
import { markScaleTarget, scaleTargetOf, scaleTargets } from '../../src/works/markScaleTargets.ts';

const source = { file: 'templates/x.yaml', line: 1, column: 1 };
const template = (
  apiVersion: string,
  kind: string,
  name: string,
  manifest: Record<string, unknown>,
  namespace = 'default',
): Template => ({
  ref: { apiVersion, kind, namespace, name },
  labels: {},
  source,
  manifest: { apiVersion, kind, metadata: { name, namespace }, ...manifest },
});
const hpa = (
  name: string,
  target: Record<string, unknown> | undefined,
  apiVersion = 'autoscaling/v2',
  namespace = 'default',
) =>
  template(
    apiVersion,
    'HorizontalPodAutoscaler',
    name,
    { spec: { ...(target ? { scaleTargetRef: target } : {}), maxReplicas: 5 } },
    namespace,
  );
const WEB = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

test("scaleTargetOf: the HPA's scaleTargetRef in its own namespace, for every served HPA version", () => {
  for (const v of ['autoscaling/v1', 'autoscaling/v2', 'autoscaling/v2beta2'])
    assert.is(scaleTargetOf(hpa('h', WEB, v, 'shop')), 'apps/v1/Deployment/shop/web', v);
});

test('scaleTargetOf: nothing for other kinds, other groups, or an incomplete target', () => {
  assert.is(scaleTargetOf(template('apps/v1', 'Deployment', 'web', { spec: { scaleTargetRef: WEB } })), undefined);
  assert.is(scaleTargetOf(hpa('h', WEB, 'example.com/v1')), undefined);
  assert.is(scaleTargetOf(hpa('h', undefined)), undefined);
  assert.is(scaleTargetOf(hpa('h', { kind: 'Deployment', name: 'web' })), undefined);
  assert.is(scaleTargetOf(hpa('h', { ...WEB, name: '' })), undefined);
});

test('scaleTargets: only propagated HPAs mark; two HPAs on one target are both listed, sorted', () => {
  const hpas = [hpa('b', WEB), hpa('a', WEB), hpa('lonely', { ...WEB, name: 'api' })];
  const marks = scaleTargets(hpas, (h) => h.ref.name !== 'lonely');
  assert.equal(
    [...marks],
    [
      [
        'apps/v1/Deployment/default/web',
        ['autoscaling/v2/HorizontalPodAutoscaler/default/a', 'autoscaling/v2/HorizontalPodAutoscaler/default/b'],
      ],
    ],
  );
});

test('markScaleTarget: sets the label to "true" beside the others, replacing another value, without touching the input', () => {
  const web = template('apps/v1', 'Deployment', 'web', { spec: { replicas: 2 } });
  (web.manifest.metadata as Record<string, unknown>).labels = {
    app: 'web',
    'resourcetemplate.karmada.io/retain-replicas': 'false',
  };
  const marked = markScaleTarget(web);
  assert.equal((marked.manifest.metadata as { labels: unknown }).labels, {
    app: 'web',
    'resourcetemplate.karmada.io/retain-replicas': 'true',
  });
  assert.is(
    (web.manifest.metadata as { labels: Record<string, string> }).labels['resourcetemplate.karmada.io/retain-replicas'],
    'false',
  );
  assert.is(
    (marked.manifest.spec as { replicas: number }).replicas,
    2,
    "the template's replicas stay: Retain takes the member's at apply",
  );
  assert.is(markScaleTarget(marked), marked, 'already marked: the same object');
  const bare = template('apps/v1', 'Deployment', 'bare', {});
  delete (bare.manifest.metadata as Record<string, unknown>).labels;
  assert.equal((markScaleTarget(bare).manifest.metadata as { labels: unknown }).labels, {
    'resourcetemplate.karmada.io/retain-replicas': 'true',
  });
});

test.run();
