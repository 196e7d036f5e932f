import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import {
  asksForOrigins,
  knowsOriginAnnotations,
  originsLeaked,
  originsOf,
  takeOrigin,
  withOriginAnnotations,
} from '../../src/units/kustomizeOrigins.ts';
import { placeObjects } from '../../src/units/kustomizePlaces.ts';
import { parseUnitOutput } from '../../src/units/parseUnitOutput.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { validateText } from '../helpers/validateText.ts';
import { KUSTOMIZE_GUESTBOOK, PODINFO_OVERLAYS } from './unitFixtures.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test("a kustomization is asked for kustomize's origin annotations by a field added at its end, its other lines where they were", () => {
  const own = 'namePrefix: web-\n# the app\nresources:\n  - deploy.yaml\n';
  assert.is(withOriginAnnotations(own), `${own}buildMetadata: [ originAnnotations ]\n`);
  assert.is(
    withOriginAnnotations('resources: [a.yaml]\nbuildMetadata: [managedByLabel]\n'),
    'resources: [ a.yaml ]\nbuildMetadata: [ managedByLabel, originAnnotations ]\n',
  );
  // One that asks already, or that kustomize itself must report, is left as it is.
  assert.is(withOriginAnnotations('buildMetadata: [originAnnotations]\n'), undefined);
  assert.is(withOriginAnnotations('- not a mapping\n'), undefined);
  assert.is(withOriginAnnotations('resources: [\n'), undefined);
  assert.ok(asksForOrigins('buildMetadata:\n  - originAnnotations\n'));
  assert.not.ok(asksForOrigins('buildMetadata: [managedByLabel]\n'));
  assert.ok(knowsOriginAnnotations('kustomize v5.5.0'));
  assert.ok(knowsOriginAnnotations('kustomize v4.5.4'));
  assert.not.ok(knowsOriginAnnotations('kustomize v4.5.3'));
  assert.not.ok(knowsOriginAnnotations('kustomize v3.8.7'));
});

test("an object's origin annotation names its file in the repository and is taken out of it unless asked for", () => {
  const object = (origin: string, more: Record<string, string> = {}) => ({
    metadata: { name: 'x', annotations: { 'config.kubernetes.io/origin': origin, ...more } },
  });
  const taken = object('path: ../base/podinfo/release.yaml\n');
  assert.is(takeOrigin(taken, 'apps/staging', false), 'apps/base/podinfo/release.yaml');
  assert.equal(taken.metadata, { name: 'x' });
  const kept = object('configuredIn: kustomization.yaml\nconfiguredBy:\n  kind: ConfigMapGenerator\n', { team: 'web' });
  assert.is(takeOrigin(kept, 'apps/staging', true), 'apps/staging/kustomization.yaml');
  assert.ok('config.kubernetes.io/origin' in kept.metadata.annotations);
  const other = object('path: a.yaml\n', { team: 'web' });
  takeOrigin(other, 'web', false);
  assert.equal(other.metadata.annotations, { team: 'web' });
  assert.is(takeOrigin(object('path: ../../../etc/passwd\n'), 'web', false), undefined);
  assert.is(takeOrigin({ metadata: { name: 'x' } }, 'web', false), undefined);
});

test("what is wrong in kustomize's output is reported at the file each object came from, named by the unit", () => {
  const stdout = new TextEncoder().encode(`apiVersion: v1
kind: ConfigMap
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ../base/cm.yaml
  name: Good
---
apiVersion: v1
kind: ConfigMap
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ok.yaml
    team: web
  name: ok
`);
  const unit = { dir: 'apps/staging', tool: 'kustomize' as const, marker: 'apps/staging/kustomization.yaml' };
  const out = parseUnitOutput(unit, stdout);
  assert.equal(
    out.problems.map((p) => [p.file, p.line, p.column, p.code]),
    [['apps/base/cm.yaml', 1, 1, 'INVALID_NAME']],
  );
  assert.match(out.problems[0]!.message, /^kustomize build apps\/staging output: metadata\.name "Good"/);
  const fine = parseUnitOutput(
    unit,
    new TextEncoder().encode(new TextDecoder().decode(stdout).replace('Good', 'good')),
  );
  assert.equal(
    fine.templates.map((t) => [t.ref.name, t.origin?.file, t.manifest.metadata]),
    [
      ['good', 'apps/base/cm.yaml', { name: 'good' }],
      ['ok', 'apps/staging/ok.yaml', { annotations: { team: 'web' }, name: 'ok' }],
    ],
  );
});

test("a Kustomize overlay's bad name is reported at its base's file, the render's output carries no origin annotation unless the kustomization asks for it", async () => {
  const bad = {
    ...MEMBERS,
    ...PODINFO_OVERLAYS,
    'apps/base/podinfo/release.yaml': PODINFO_OVERLAYS['apps/base/podinfo/release.yaml']!.replace(
      'name: podinfo',
      'name: PodInfo',
    ),
  };
  const r = makeConfigRepoWith(repos, bad, 'bad name in the base');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const named = snapshot.model.problems.filter((p) => p.code === 'INVALID_NAME');
  assert.ok(named.length > 0);
  for (const p of named) {
    assert.is(`${p.file}:${p.line}`, 'apps/base/podinfo/release.yaml:1');
    assert.match(p.message, /^kustomize build apps\/(staging|production) output: metadata\.name "PodInfo"/);
  }

  const good = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...KUSTOMIZE_GUESTBOOK,
      'asked/kustomization.yaml': 'resources: [cm.yaml]\nbuildMetadata: [originAnnotations]\n',
      'asked/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: asked\ndata:\n  k: v\n',
    },
    'guestbook',
  );
  for (const pass of ['run', 'cached']) {
    const { model } = await renderSnapshot(await openRepo(good.dir), 'HEAD');
    assert.equal(model.problems, [], pass);
    const deploy = model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui')!;
    assert.equal((deploy.manifest.metadata as Record<string, unknown>).annotations, undefined, pass);
    assert.is(deploy.origin?.file, 'kustomize-guestbook/guestbook-ui-deployment.yaml', pass);
    const asked = model.templates.get('v1/ConfigMap/default/asked')!;
    assert.equal(
      (asked.manifest.metadata as { annotations?: Record<string, string> }).annotations,
      { 'config.kubernetes.io/origin': 'path: cm.yaml\n' },
      pass,
    );
  }
});

test("origins Flotilla asks kustomize for stay out of what a transformer copies: the content is a plain build's, each object still named at its file", async () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
  annotations: {team: web}
spec:
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec: {containers: [{name: c, image: nginx}]}
`;
  const replacement = `replacements:
- source: {kind: Deployment, fieldPath: metadata.annotations}
  targets:
  - select: {kind: Deployment}
    fieldPaths: [spec.template.metadata.annotations]
    options: {create: true}
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'replaced/kustomization.yaml': `resources: [d.yaml]\n${replacement}`,
      'replaced/d.yaml': deployment,
      'copied/kustomization.yaml': `resources: [d.yaml]
patches:
- target: {kind: Deployment}
  patch: |
    - {op: copy, from: /metadata/annotations, path: /spec/template/metadata/annotations}
`,
      'copied/d.yaml': deployment.replace('name: d', 'name: e'),
      // kustomize tracks origins for any buildMetadata, and then removes only each object's own: kubectl's output
      // keeps the copy, and so does Flotilla's.
      'labelled/kustomization.yaml': `resources: [d.yaml]\nbuildMetadata: [transformerAnnotations]\n${replacement}`,
      'labelled/d.yaml': deployment.replace('name: d', 'name: f'),
    },
    'annotations copied into the pod template',
  );
  for (const pass of ['run', 'cached']) {
    const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(model.problems, [], pass);
    const podAnnotations = (key: string) =>
      (model.templates.get(key)!.manifest as { spec: { template: { metadata: { annotations?: unknown } } } }).spec
        .template.metadata.annotations;
    assert.equal(podAnnotations('apps/v1/Deployment/default/d'), { team: 'web' }, pass);
    // As kubectl's: the patch transformer's own build annotations are copied too, and kustomize leaves them there.
    assert.equal(
      podAnnotations('apps/v1/Deployment/default/e'),
      {
        'internal.config.kubernetes.io/previousKinds': 'Deployment',
        'internal.config.kubernetes.io/previousNames': 'e',
        'internal.config.kubernetes.io/previousNamespaces': 'default',
        team: 'web',
      },
      pass,
    );
    assert.equal(
      podAnnotations('apps/v1/Deployment/default/f'),
      { 'config.kubernetes.io/origin': 'path: d.yaml\n', team: 'web' },
      pass,
    );
    assert.is(model.templates.get('apps/v1/Deployment/default/d')!.origin?.file, 'replaced/d.yaml', pass);
    assert.is(model.templates.get('apps/v1/Deployment/default/e')!.origin?.file, 'copied/d.yaml', pass);
  }
});

test("a kustomize output carries origins past its objects' own annotations only where a transformer copied them", () => {
  const own = 'metadata:\n  name: a\n  annotations:\n    config.kubernetes.io/origin: |\n      path: a.yaml\n';
  assert.not.ok(originsLeaked(`kind: ConfigMap\n${own}data: {k: v}\n`));
  assert.ok(originsLeaked(`kind: ConfigMap\n${own}data: {k: "path: a.yaml\\n"}\n`));
  assert.ok(originsLeaked(`kind: Pod\n${own}spec: {x: {config.kubernetes.io/origin: y}}\n`));
  assert.equal(originsOf(`kind: ConfigMap\n${own}---\nkind: ConfigMap\nmetadata: {name: b}\n`), {
    '["","ConfigMap","","a"]': 'path: a.yaml\n',
  });
});

test("validate places each object of a Kustomize unit at its document, its base's, its component's or its generator entry, renamed or not", async () => {
  const skip = '  annotations: {argocd.argoproj.io/hook: Skip}\n';
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'apps/base/kustomization.yaml': `resources:
- app.yaml
configMapGenerator:
- name: settings
  literals: [a=b]
  options:
    annotations: {argocd.argoproj.io/hook: Skip}
`,
      'apps/base/app.yaml': `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{port: 80}]
---
# the workload
apiVersion: v1
kind: Service
metadata:
  name: web-admin
${skip}spec:
  ports: [{port: 81}]
`,
      'apps/extra/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [sa.yaml]\n',
      'apps/extra/sa.yaml': `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: extra\n${skip}`,
      'apps/overlay/kustomization.yaml': `namePrefix: pre-
nameSuffix: -x
namespace: shop
resources:
- ../base
- own.yaml
components:
- ../extra
configMapGenerator:
- name: plain
  literals: [x=y]
- name: flags
  literals: [x=y]
  options:
    annotations: {argocd.argoproj.io/hook: Skip}
`,
      'apps/overlay/own.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: one
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: two
${skip}`,
    },
    'a kustomize overlay of a base and a component',
  );
  for (const pass of ['run', 'cached']) {
    const { text } = await validateText(r.dir);
    const placed = text
      .split('\n')
      .filter((l) => l.includes('HOOK_NOT_RENDERED'))
      .map((l) => `${l.split(' ')[0]} ${/output: (\S+ \S+)/.exec(l)?.[1]}`)
      .sort();
    assert.equal(
      placed,
      [
        'apps/base/app.yaml:9:1 Service pre-web-admin-x',
        'apps/base/kustomization.yaml:4:3 ConfigMap pre-settings-x-4h2mbtbbt6',
        'apps/extra/sa.yaml:1:1 ServiceAccount pre-extra-x',
        'apps/overlay/kustomization.yaml:12:3 ConfigMap pre-flags-x-6gc9d749f7',
        'apps/overlay/own.yaml:6:1 ConfigMap pre-two-x',
      ],
      `${pass}\n${text}`,
    );
  }
});

test("a renamed object is placed at the document whose kind and longest name its output's holds, a List's item at the item", () => {
  const files: Record<string, string> = {
    'web/list.yaml': `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: ab}
`,
    'web/two.yaml': `apiVersion: v1
kind: Service
metadata: {name: api, namespace: blue}
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: green}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: only}
`,
  };
  const id = (apiVersion: string, kind: string, namespace: string, name: string) =>
    JSON.stringify([apiVersion, kind, namespace, name]);
  const places = placeObjects(
    {
      [id('v1', 'ConfigMap', '', 'p-a')]: 'path: list.yaml\n',
      [id('v1', 'ConfigMap', '', 'p-ab')]: 'path: list.yaml\n',
      [id('v1', 'Service', 'green', 'api')]: 'path: two.yaml\n',
      // Renamed past recognition by a patch: the file's only Deployment.
      [id('apps/v1', 'Deployment', '', 'renamed')]: 'path: two.yaml\n',
      [id('v1', 'Secret', '', 'gone')]: 'path: two.yaml\n',
      [id('v1', 'ConfigMap', '', 'outside')]: 'path: ../../etc/x.yaml\n',
    },
    'web',
    (file) => files[file],
  );
  assert.equal(
    Object.values(places).map((p) => `${p.file}:${p.line}:${p.column}`),
    ['web/list.yaml:4:3', 'web/list.yaml:7:3', 'web/two.yaml:5:1', 'web/two.yaml:9:1'],
  );
});

test.run();
