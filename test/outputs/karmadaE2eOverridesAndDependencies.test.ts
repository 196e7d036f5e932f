// Karmada's end-to-end override scenarios, replayed through a render of a small config repo: templates,
// PropagationPolicies and Override/ClusterOverridePolicies in Git, and what each member's manifest says afterwards.
// Scenarios from test/e2e/suites/base/overridepolicy_test.go and clusteroverridepolicy_test.go (Karmada f8fdd02);
// events (ApplyOverridePolicySucceed) have no counterpart and are not checked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { makeConfigRepo, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const CLUSTERS = ['member1', 'member2', 'member3'];
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** A repo holding the three members and `files`; `next` commits more and renders again. */
async function fleet(files: Record<string, string>) {
  const r = makeConfigRepo();
  repos.push(r);
  const render = async (more: Record<string, string | null>) => {
    r.commit(more);
    await renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  };
  await render({ ...MEMBERS, ...files });
  const manifest = (cluster: string, file: string, namespace = 'default') => {
    const p = `clusters/${cluster}/${namespace}/${file}`;
    return r.ls('flotilla/rendered').includes(p) ? parse(r.show('flotilla/rendered', p)) : undefined;
  };
  return { manifest, next: render };
}

// Karmada's helper.NewDeployment: 3 replicas of nginx:1.19.0 asking 10m CPU.
const deployment = (name: string, metadata = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${metadata}
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
        - name: nginx
          image: nginx:1.19.0
          resources: {requests: {cpu: 10m}, limits: {cpu: 100m}}
          ports: [{containerPort: 80, protocol: TCP}]
`;
// Karmada's helper.NewPod: two containers.
const POD = `apiVersion: v1
kind: Pod
metadata: {name: pod}
spec:
  containers:
    - {name: nginx, image: "nginx:1.19.0", ports: [{name: web, containerPort: 80, protocol: TCP}]}
    - {name: busybox, image: "busybox:1.36.0", command: [sleep, "3600"], ports: [{name: web, containerPort: 81, protocol: TCP}]}
`;
const propagation = (apiVersion: string, kind: string, name: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}}
spec:
  resourceSelectors: [{apiVersion: ${apiVersion}, kind: ${kind}, name: ${name}}]
  placement:
    clusterAffinity: {clusterNames: [${CLUSTERS.join(', ')}]}
`;
const selectorsOf = (apiVersion: string, kind: string, name: string) =>
  `  resourceSelectors: [{apiVersion: ${apiVersion}, kind: ${kind}, name: ${name}}]\n`;
/** An OverridePolicy with one rule for every member (overrideRules), or the deprecated targetCluster/overriders pair. */
const override = (
  name: string,
  selectors: string,
  overriders: string,
  form: 'rules' | 'pair' = 'rules',
  kind = 'OverridePolicy',
) => {
  const body = overriders
    .trim()
    .split('\n')
    .map((l) => `${form === 'rules' ? '        ' : '    '}${l}`)
    .join('\n');
  const spec =
    form === 'rules'
      ? `  overrideRules:\n    - targetCluster: {clusterNames: [${CLUSTERS.join(', ')}]}\n      overriders:\n${body}\n`
      : `  targetCluster: {clusterNames: [${CLUSTERS.join(', ')}]}\n  overriders:\n${body}\n`;
  return `apiVersion: policy.karmada.io/v1alpha1\nkind: ${kind}\nmetadata: {name: ${name}}\nspec:\n${selectors}${spec}`;
};

const LABEL_OPS = `
- operator: replace
  value: {foo: exist, non-exist: non-exist}
- operator: add
  value: {app: nginx}
- operator: remove
  value: {bar: bar}`;
const ALL_IMAGES = `imageOverrider:
  - {component: Registry, operator: replace, value: fictional.registry.us}
  - {component: Repository, operator: replace, value: busybox}
  - {component: Tag, operator: replace, value: "1.0"}`;
const FIRST_IMAGE_REGISTRY = `imageOverrider:
  - predicate: {path: /spec/template/spec/containers/0/image}
    component: Registry
    operator: replace
    value: fictional.registry.us`;
const DEPLOY = ['apps/v1', 'Deployment'] as const;

// overridepolicy_test.go, "[LabelsOverrider] apply labels overrider testing"
test('labelsOverrider: replace changes only existing labels, add adds, remove drops, on every member', async () => {
  const { manifest } = await fleet({
    'templates/web.yaml': deployment('web', '\n  labels: {foo: foo, bar: bar}'),
    'policies/pp.yaml': propagation(...DEPLOY, 'web'),
    'policies/op.yaml': override(
      'web',
      selectorsOf(...DEPLOY, 'web'),
      `labelsOverrider:${LABEL_OPS.replace(/\n/g, '\n  ')}`,
      'pair',
    ),
  });
  for (const c of CLUSTERS) {
    const labels = manifest(c, 'deployment.apps_web.yaml')?.metadata.labels ?? {};
    assert.is(labels.foo, 'exist', c);
    assert.is(labels.app, 'nginx', c);
    assert.not.ok('bar' in labels, `${c}: bar removed`);
    assert.not.ok('non-exist' in labels, `${c}: replace does not create`);
  }
});

// overridepolicy_test.go, "[AnnotationsOverrider] apply annotations overrider testing"
test('annotationsOverrider: replace changes only existing annotations, add adds, remove drops, on every member', async () => {
  const { manifest } = await fleet({
    'templates/web.yaml': deployment('web', '\n  annotations: {foo: foo, bar: bar}'),
    'policies/pp.yaml': propagation(...DEPLOY, 'web'),
    'policies/op.yaml': override(
      'web',
      selectorsOf(...DEPLOY, 'web'),
      `annotationsOverrider:${LABEL_OPS.replace(/\n/g, '\n  ')}`,
      'pair',
    ),
  });
  for (const c of CLUSTERS) {
    const annotations = manifest(c, 'deployment.apps_web.yaml')?.metadata.annotations ?? {};
    assert.is(annotations.foo, 'exist', c);
    assert.is(annotations.app, 'nginx', c);
    assert.not.ok('bar' in annotations, `${c}: bar removed`);
    assert.not.ok('non-exist' in annotations, `${c}: replace does not create`);
  }
});

// overridepolicy_test.go, "Deployment override all images in container list" (both the deprecated pair and overrideRules)
for (const form of ['pair', 'rules'] as const) {
  test(`imageOverrider without predicate rewrites registry, repository and tag of a Deployment's containers (${form === 'pair' ? 'targetCluster/overriders' : 'overrideRules'})`, async () => {
    const { manifest } = await fleet({
      'templates/web.yaml': deployment('web'),
      'policies/pp.yaml': propagation(...DEPLOY, 'web'),
      'policies/op.yaml': override('web', selectorsOf(...DEPLOY, 'web'), ALL_IMAGES, form),
    });
    for (const c of CLUSTERS) {
      const containers = manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers;
      assert.equal(
        containers.map((k: { image: string }) => k.image),
        ['fictional.registry.us/busybox:1.0'],
        c,
      );
    }
  });

  // overridepolicy_test.go, "Pod override all images in container list"
  test(`imageOverrider without predicate rewrites every container of a Pod (${form === 'pair' ? 'targetCluster/overriders' : 'overrideRules'})`, async () => {
    const { manifest } = await fleet({
      'templates/pod.yaml': POD,
      'policies/pp.yaml': propagation('v1', 'Pod', 'pod'),
      'policies/op.yaml': override('pod', selectorsOf('v1', 'Pod', 'pod'), ALL_IMAGES, form),
    });
    for (const c of CLUSTERS) {
      const containers = manifest(c, 'pod_pod.yaml')?.spec.containers;
      assert.equal(
        containers.map((k: { image: string }) => k.image),
        ['fictional.registry.us/busybox:1.0', 'fictional.registry.us/busybox:1.0'],
        c,
      );
    }
  });

  // overridepolicy_test.go, "Deployment override specific images in container list"
  test(`imageOverrider with a predicate rewrites only the image at that path (${form === 'pair' ? 'targetCluster/overriders' : 'overrideRules'})`, async () => {
    const { manifest } = await fleet({
      'templates/web.yaml': deployment('web'),
      'policies/pp.yaml': propagation(...DEPLOY, 'web'),
      'policies/op.yaml': override('web', selectorsOf(...DEPLOY, 'web'), FIRST_IMAGE_REGISTRY, form),
    });
    for (const c of CLUSTERS) {
      assert.is(
        manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers[0].image,
        'fictional.registry.us/nginx:1.19.0',
        c,
      );
    }
  });

  // overridepolicy_test.go, "OverridePolicy with nil resourceSelector testing" and "OverrideRules with nil resourceSelector testing"
  test(`an OverridePolicy without resourceSelectors overrides every template of its namespace (${form === 'pair' ? 'targetCluster/overriders' : 'overrideRules'})`, async () => {
    const { manifest } = await fleet({
      'templates/web.yaml': deployment('web'),
      'policies/pp.yaml': propagation(...DEPLOY, 'web'),
      'policies/op.yaml': override('web', '', FIRST_IMAGE_REGISTRY, form),
    });
    for (const c of CLUSTERS) {
      assert.is(
        manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers[0].image,
        'fictional.registry.us/nginx:1.19.0',
        c,
      );
    }
  });
}

const DEPLOY_JSON = JSON.stringify(
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx-deploy', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.19.0' }] },
      },
    },
  },
  null,
  2,
);

// overridepolicy_test.go, "[FieldOverrider] apply field overrider testing to update JSON values in ConfigMap"
test('fieldOverrider json: replace, append to a list and remove inside a JSON document held in a ConfigMap key', async () => {
  const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  deploy.json: ${JSON.stringify(DEPLOY_JSON)}\n`;
  const { manifest } = await fleet({
    'templates/cm.yaml': cm,
    'policies/pp.yaml': propagation('v1', 'ConfigMap', 'cm'),
    'policies/op.yaml': override(
      'cm',
      selectorsOf('v1', 'ConfigMap', 'cm'),
      `fieldOverrider:
  - fieldPath: /data/deploy.json
    json:
      - {subPath: /spec/replicas, operator: replace, value: 5}
      - {subPath: /spec/template/spec/containers/-, operator: add, value: {name: nginx-helper, image: "nginx:1.19.1"}}
      - {subPath: /spec/template/spec/containers/0/image, operator: remove}`,
      'pair',
    ),
  });
  for (const c of CLUSTERS) {
    const doc: string = manifest(c, 'configmap_cm.yaml')?.data['deploy.json'];
    assert.ok(doc.includes('"replicas":5'), `${c}: ${doc}`);
    assert.ok(doc.includes('"name":"nginx-helper"'), c);
    assert.not.ok(doc.includes('"image":"nginx:1.19.0"'), c);
  }
});

// overridepolicy_test.go, "[FieldOverrider] apply field overrider testing to update YAML values in ConfigMap"
test('fieldOverrider yaml: replace under a key with ~1, append to a list and remove inside a YAML document held in a ConfigMap key', async () => {
  const nginx = `server:
  listen: 80
  server_name: localhost
  location /:
    root: /usr/share/nginx/html
    index:
      - index.html
      - index.htm
  error_page:
    - code: 500
    - code: 502
    - code: 503
    - code: 504
  location /50x.html:
    root: /usr/share/nginx/html
`;
  const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  nginx.yaml: ${JSON.stringify(nginx)}\n`;
  const { manifest } = await fleet({
    'templates/cm.yaml': cm,
    'policies/pp.yaml': propagation('v1', 'ConfigMap', 'cm'),
    'policies/op.yaml': override(
      'cm',
      selectorsOf('v1', 'ConfigMap', 'cm'),
      `fieldOverrider:
  - fieldPath: /data/nginx.yaml
    yaml:
      - {subPath: "/server/location ~1/root", operator: replace, value: /var/www/html}
      - {subPath: /server/error_page/-, operator: add, value: {code: 400}}
      - {subPath: "/server/location ~1/index", operator: remove}`,
      'pair',
    ),
  });
  for (const c of CLUSTERS) {
    const doc: string = manifest(c, 'configmap_cm.yaml')?.data['nginx.yaml'];
    assert.ok(doc.includes('root: /var/www/html'), `${c}: ${doc}`);
    assert.ok(doc.includes('code: 400'), c);
    assert.not.ok(doc.includes('- index.html'), c);
  }
});

// overridepolicy_test.go, "Deployment override testing when creating overridePolicy after develop and propagationPolicy have been created"
test('an OverridePolicy added after the Deployment went out rewrites what the members already run', async () => {
  const { manifest, next } = await fleet({
    'templates/web.yaml': deployment('web'),
    'policies/pp.yaml': propagation(...DEPLOY, 'web'),
  });
  for (const c of CLUSTERS)
    assert.is(manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers[0].image, 'nginx:1.19.0');
  await next({ 'policies/op.yaml': override('web', '', FIRST_IMAGE_REGISTRY) });
  for (const c of CLUSTERS) {
    assert.is(
      manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers[0].image,
      'fictional.registry.us/nginx:1.19.0',
      c,
    );
  }
});

// clusteroverridepolicy_test.go, "The ClusterOverridePolicy with nil resourceSelectors testing"
test('a ClusterOverridePolicy without resourceSelectors, added later, rewrites a namespaced Deployment on every member', async () => {
  const { manifest, next } = await fleet({
    'templates/web.yaml': deployment('web'),
    'policies/pp.yaml': propagation(...DEPLOY, 'web'),
  });
  assert.ok(manifest('member1', 'deployment.apps_web.yaml'));
  await next({ 'policies/cop.yaml': override('web', '', FIRST_IMAGE_REGISTRY, 'rules', 'ClusterOverridePolicy') });
  for (const c of CLUSTERS) {
    assert.is(
      manifest(c, 'deployment.apps_web.yaml')?.spec.template.spec.containers[0].image,
      'fictional.registry.us/nginx:1.19.0',
      c,
    );
  }
});

// clusteroverridepolicy_test.go, "Namespace propagation testing" / "Namespace labelOverride testing"
test('a ClusterOverridePolicy plaintext add of /metadata/labels reaches the Namespace synced to every member, without any PropagationPolicy', async () => {
  const { manifest } = await fleet({
    'templates/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: cop-test-ns}\n',
    'policies/cop.yaml': override(
      'cop-test-ns',
      selectorsOf('v1', 'Namespace', 'cop-test-ns'),
      `plaintext:
  - {path: /metadata/labels, operator: add, value: {hello: world}}`,
      'rules',
      'ClusterOverridePolicy',
    ),
  });
  for (const c of CLUSTERS) {
    assert.is(manifest(c, 'namespace_cop-test-ns.yaml', '_cluster')?.metadata.labels?.hello, 'world', c);
  }
});

test.run();
