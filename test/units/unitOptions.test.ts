import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { kustomizeImage, parseUnitOptions } from '../../src/units/unitOptions.ts';
import { releaseNameOf } from '../../src/units/renderUnit.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook, KUSTOMIZE_GUESTBOOK } from './unitFixtures.ts';

const { repos, original } = unitSuite(test);

const snapshotOf = async (files: Record<string, string>) =>
  renderSnapshot(await openRepo(makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'units').dir), 'HEAD');

test("a HelmUnit's release name, namespace, value files and parameters reach helm template, and the unit records them", async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/values-production.yaml': 'replicaCount: 4\n',
    'helm-guestbook/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  releaseName: guestbook
  namespace: web
  valueFiles: [values-production.yaml]
  parameters:
    - {name: service.type, value: NodePort}
`,
  });
  assert.equal(snapshot.model.problems, []);
  const deployment = snapshot.model.templates.get('apps/v1/Deployment/web/guestbook-helm-guestbook');
  assert.ok(deployment, [...snapshot.model.templates.keys()].join('\n'));
  assert.is((deployment!.manifest.spec as { replicas: number }).replicas, 4);
  assert.is(deployment!.origin?.file, 'helm-guestbook/templates/deployment.yaml');
  const service = snapshot.model.templates.get('v1/Service/web/guestbook-helm-guestbook');
  assert.is((service!.manifest.spec as { type: string }).type, 'NodePort');
  assert.equal(snapshot.model.units?.get('helm-guestbook/Chart.yaml'), {
    dir: 'helm-guestbook',
    tool: 'helm',
    marker: 'helm-guestbook/Chart.yaml',
    optionsFile: 'helm-guestbook/flotilla-unit.yaml',
    release: 'guestbook',
    namespace: 'web',
    valueFiles: ['helm-guestbook/values.yaml', 'helm-guestbook/values-production.yaml'],
    toolVersion: snapshot.model.units?.get('helm-guestbook/Chart.yaml')?.toolVersion,
  });
});

test("a chart folder's name is its release name as helm template takes it: dots kept, any other name made one helm accepts", async () => {
  // Without the chart's Service: on a member a Service's name (a DNS-1035 label) may not hold the dot.
  const files = Object.fromEntries(
    Object.entries(helmGuestbook(1))
      .filter(([path]) => !path.endsWith('/service.yaml'))
      .map(([path, text]) => [path.replace(/^helm-guestbook\//, 'apps/web.v2/'), text]),
  );
  const snapshot = await snapshotOf(files);
  assert.equal(snapshot.model.problems, []);
  assert.equal([...snapshot.model.templates.keys()], ['apps/v1/Deployment/default/web.v2-helm-guestbook']);
  assert.is(releaseNameOf('charts/guestbook'), 'guestbook');
  assert.is(releaseNameOf('charts/Web_App'), 'web-app');
  assert.is(releaseNameOf('charts/-a..b-.c_'), 'a.b.c');
  // Cut to helm's 53 characters, never ending in a character a DNS label may not end in.
  assert.is(releaseNameOf(`x/${'a'.repeat(52)}-b`), 'a'.repeat(52));
  assert.is(releaseNameOf('x/___'), 'release');
});

test("a KustomizeUnit's namePrefix replaces the kustomization's and its images apply, as Argo CD's kustomize edit does", async () => {
  const snapshot = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    'kustomize-guestbook/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  namePrefix: staging-
  images: [gcr.io/google-samples/gb-frontend=nginx:1.27]
`,
  });
  assert.equal(snapshot.model.problems, []);
  // Argo CD runs `kustomize edit set nameprefix staging-` in the folder: staging- instead of kustomize-, not both.
  const deployment = snapshot.model.templates.get('apps/v1/Deployment/default/staging-guestbook-ui');
  assert.ok(deployment, [...snapshot.model.templates.keys()].join('\n'));
  const containers = (deployment!.manifest.spec as { template: { spec: { containers: { image: string }[] } } }).template
    .spec.containers;
  assert.is(containers[0]!.image, 'nginx:1.27');
});

// helm and kustomize read YAML 1.1; Argo CD writes valuesObject with sigs.k8s.io/yaml, which quotes such strings, and
// escapes the commas of a parameter's value (util/helm/cmd.go cleanSetParameters).
test("a HelmUnit's valuesObject strings reach helm as strings, and a parameter's commas as commas", async () => {
  const snapshot = await snapshotOf({
    'probe/Chart.yaml': 'apiVersion: v2\nname: probe\nversion: 0.1.0\n',
    'probe/values.yaml': 'message: hello\n',
    'probe/templates/cm.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: probe
data:
{{- range $k, $v := .Values.probe }}
  {{ $k }}: {{ printf "%s %v" (kindOf $v) $v | quote }}
{{- end }}
  csv: {{ printf "%s %v" (kindOf .Values.csv) .Values.csv | quote }}
  list: {{ printf "%s %v" (kindOf .Values.list) .Values.list | quote }}
`,
    'probe/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  valuesObject:
    probe: {agree: "yes", enable: "on", disable: "Off", binary: "0b101", underscored: "1_000", time: "12:30"}
  parameters:
    - {name: csv, value: "a,b,c", forceString: true}
    - {name: list, value: "{x,y}"}
`,
  });
  assert.equal(snapshot.model.problems, []);
  const cm = snapshot.model.templates.get('v1/ConfigMap/default/probe');
  assert.ok(cm, [...snapshot.model.templates.keys()].join('\n'));
  assert.equal(cm!.manifest.data, {
    agree: 'string yes',
    binary: 'string 0b101',
    disable: 'string Off',
    enable: 'string on',
    time: 'string 12:30',
    underscored: 'string 1_000',
    csv: 'string a,b,c',
    list: 'slice [x y]',
  });
});

test("a KustomizeUnit's options leave the kustomization's quoted strings strings", async () => {
  const snapshot = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    'kustomize-guestbook/kustomization.yaml': KUSTOMIZE_GUESTBOOK['kustomize-guestbook/kustomization.yaml']!.replace(
      'namePrefix: kustomize-\n',
      'namePrefix: kustomize-\ncommonLabels: {canary: "off", "on": "yes"}\n',
    ),
    'kustomize-guestbook/flotilla-unit.yaml':
      'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  nameSuffix: -eu\n',
  });
  assert.equal(snapshot.model.problems, []);
  const deployment = snapshot.model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui-eu');
  assert.ok(deployment, [...snapshot.model.templates.keys()].join('\n'));
  assert.equal(deployment!.labels, { canary: 'off', on: 'yes' });
});

test("a KustomizeUnit's label the kustomization already has holds the unit at the option's line unless forceCommonLabels, as Argo CD's kustomize edit add label refuses it", async () => {
  const files = {
    ...KUSTOMIZE_GUESTBOOK,
    'kustomize-guestbook/kustomization.yaml': KUSTOMIZE_GUESTBOOK['kustomize-guestbook/kustomization.yaml']!.replace(
      'namePrefix: kustomize-\n',
      'namePrefix: kustomize-\ncommonLabels: {tier: web}\n',
    ),
  };
  const options = 'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  commonLabels:\n    tier: frontend\n';
  const held = await snapshotOf({ ...files, 'kustomize-guestbook/flotilla-unit.yaml': options });
  const problem = held.model.problems.find((p) => p.file === 'kustomize-guestbook/flotilla-unit.yaml');
  assert.ok(problem, JSON.stringify(held.model.problems));
  assert.is(problem!.line, 5);
  assert.match(problem!.message, /label tier is already in the kustomization's commonLabels/);
  assert.match(problem!.fix, /spec\.forceCommonLabels: true/);
  assert.not.ok(held.model.templates.has('apps/v1/Deployment/default/kustomize-guestbook-ui'));

  const forced = await snapshotOf({
    ...files,
    'kustomize-guestbook/flotilla-unit.yaml': `${options}  forceCommonLabels: true\n`,
  });
  assert.equal(forced.model.problems, []);
  assert.is(forced.model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui')?.labels?.tier, 'frontend');
});

test("a KustomizeUnit's replicas set a Deployment's count, as Argo CD's kustomize edit set replicas does, and a count that is no whole number is refused at its line", async () => {
  const snapshot = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    'kustomize-guestbook/flotilla-unit.yaml':
      'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  replicas:\n    - {name: guestbook-ui, count: "3"}\n',
  });
  assert.equal(snapshot.model.problems, []);
  const deployment = snapshot.model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui');
  assert.is((deployment?.manifest.spec as { replicas?: number } | undefined)?.replicas, 3);

  const file = 'kustomize-guestbook/flotilla-unit.yaml';
  const text =
    'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  replicas:\n    - {name: web, count: two}\n';
  const read = parseUnitOptions('kustomize', file, parseDocuments(file, new TextEncoder().encode(text)).documents);
  assert.equal(
    read.problems.map((p) => [p.line, p.message]),
    [[5, 'spec.replicas[0].count is "two": a replica count is a whole number']],
  );
});

test("a KustomizeUnit's labelWithoutSelector leaves a Deployment's selector alone and labelIncludeTemplates labels its pods, as Argo CD's kustomize edit add label flags do", async () => {
  const options = (extra: string) =>
    `apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  commonLabels: {team: web}\n${extra}`;
  type Spec = {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> } };
  };
  const render = async (extra: string) => {
    const snapshot = await snapshotOf({
      ...KUSTOMIZE_GUESTBOOK,
      'kustomize-guestbook/flotilla-unit.yaml': options(extra),
    });
    assert.equal(snapshot.model.problems, []);
    const d = snapshot.model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui')!;
    const spec = d.manifest.spec as Spec;
    return { labels: d.labels, selector: spec.selector.matchLabels, pods: spec.template.metadata.labels };
  };
  assert.equal(await render('  labelWithoutSelector: true\n'), {
    labels: { team: 'web' },
    selector: { app: 'guestbook-ui' },
    pods: { app: 'guestbook-ui' },
  });
  assert.equal(await render('  labelWithoutSelector: true\n  labelIncludeTemplates: true\n'), {
    labels: { team: 'web' },
    selector: { app: 'guestbook-ui' },
    pods: { app: 'guestbook-ui', team: 'web' },
  });

  const file = 'kustomize-guestbook/flotilla-unit.yaml';
  const alone = parseUnitOptions(
    'kustomize',
    file,
    parseDocuments(file, new TextEncoder().encode(options('  labelIncludeTemplates: true\n'))).documents,
  );
  assert.equal(
    alone.problems.map((p) => [p.line, p.fix]),
    [
      [
        5,
        'set spec.labelWithoutSelector: true as well (labels then leave selectors alone), or remove spec.labelIncludeTemplates',
      ],
    ],
  );
  const noLabels = `apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  commonLabels: {}\n  labelIncludeTemplates: true\n`;
  assert.equal(
    parseUnitOptions('kustomize', file, parseDocuments(file, new TextEncoder().encode(noLabels)).documents).problems,
    [],
    'without labels Argo CD runs no kustomize edit add label, so the flag alone is no error',
  );
});

test("a KustomizeUnit's patches apply after the kustomization's own, inline or from a file of the unit's folder, as Argo CD adds them", async () => {
  const snapshot = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    'kustomize-guestbook/patches/port.yaml':
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: guestbook-ui\nspec:\n  type: NodePort\n',
    'kustomize-guestbook/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  patches:
    - target: {kind: Deployment, name: guestbook-ui}
      patch: |-
        - op: replace
          path: /spec/replicas
          value: 4
    - path: patches/port.yaml
`,
  });
  assert.equal(snapshot.model.problems, []);
  const spec = (key: string) => snapshot.model.templates.get(key)?.manifest.spec as Record<string, unknown> | undefined;
  assert.is(spec('apps/v1/Deployment/default/kustomize-guestbook-ui')?.replicas, 4);
  assert.is(spec('v1/Service/default/kustomize-guestbook-ui')?.type, 'NodePort');
});

test("a KustomizeUnit's patch file outside the unit's folder, or not in the commit, is refused at its line", async () => {
  const file = 'kustomize-guestbook/flotilla-unit.yaml';
  const options = (path: string) =>
    `apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  patches:\n    - path: ${path}\n`;
  const read = (text: string) =>
    parseUnitOptions('kustomize', file, parseDocuments(file, new TextEncoder().encode(text)).documents).problems;
  for (const outside of ['../policies/p.yaml', '/etc/passwd', 'sub/../../x.yaml', 'https://example.com/p.yaml']) {
    const problems = read(options(outside));
    assert.equal(
      problems.map((p) => p.line),
      [5],
      outside,
    );
    assert.match(problems[0]!.message, /a patch file is read from the unit's folder/);
    assert.match(problems[0]!.fix, /move the patch into kustomize-guestbook/);
  }
  assert.equal(read(options('./patches/../port.yaml')), [], 'a path that stays inside is taken');
  assert.equal(
    read(
      'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  patches:\n    - {path: a.yaml, patch: x}\n',
    ).map((p) => p.message),
    ['spec.patches[0] has both path and patch: kustomize takes one of them'],
  );

  const snapshot = await snapshotOf({ ...KUSTOMIZE_GUESTBOOK, [file]: options('patches/missing.yaml') });
  const problem = snapshot.model.problems.find((p) => p.file === file);
  assert.ok(problem, JSON.stringify(snapshot.model.problems));
  assert.is(problem!.line, 5);
  assert.is(
    problem!.message,
    'spec.patches[0].path names kustomize-guestbook/patches/missing.yaml, which is not a file of this commit',
  );
});

test("a KustomizeUnit's components are added to its kustomization and read from the commit, as Argo CD's kustomize edit add component does; one the commit lacks holds the unit at its line unless ignoreMissingComponents", async () => {
  const component = {
    'components/scaled/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
  - target: {kind: Deployment}
    patch: |-
      - {op: replace, path: /spec/replicas, value: 6}
`,
  };
  const options = (list: string, extra = '') =>
    `apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  components: ${list}\n${extra}`;
  const replicas = (snapshot: Awaited<ReturnType<typeof snapshotOf>>) =>
    (
      snapshot.model.templates.get('apps/v1/Deployment/default/kustomize-guestbook-ui')?.manifest.spec as
        | { replicas?: number }
        | undefined
    )?.replicas;
  const added = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    ...component,
    'kustomize-guestbook/flotilla-unit.yaml': options('[../components/scaled]'),
  });
  assert.equal(added.model.problems, []);
  assert.is(replicas(added), 6);

  const missing = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    ...component,
    'kustomize-guestbook/flotilla-unit.yaml': options('[../components/scaled, ../components/gone]'),
  });
  const problem = missing.model.problems.find((p) => p.file === 'kustomize-guestbook/flotilla-unit.yaml');
  assert.ok(problem, JSON.stringify(missing.model.problems));
  assert.is(problem!.line, 4);
  assert.match(problem!.message, /\.\.\/components\/gone is not in this commit/);

  const ignored = await snapshotOf({
    ...KUSTOMIZE_GUESTBOOK,
    ...component,
    'kustomize-guestbook/flotilla-unit.yaml': options(
      '[../components/scaled, ../components/gone]',
      '  ignoreMissingComponents: true\n',
    ),
  });
  assert.equal(ignored.model.problems, []);
  assert.is(replicas(ignored), 6);
});

test("a chart's test hooks are left out, as helm install leaves them to helm test", async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/templates/tests/test-connection.yaml': `apiVersion: v1
kind: Pod
metadata:
  name: "{{ .Release.Name }}-test-connection"
  annotations:
    "helm.sh/hook": test
spec:
  restartPolicy: Never
  containers:
    - {name: wget, image: busybox, command: [wget, "{{ .Release.Name }}:80"]}
`,
  });
  assert.equal(snapshot.model.problems, []);
  assert.equal([...snapshot.model.templates.keys()].sort(), [
    'apps/v1/Deployment/default/helm-guestbook',
    'v1/Service/default/helm-guestbook',
  ]);
});

test("a chart sees the built-in kinds' group/version/kind in .Capabilities.APIVersions, as Argo CD passes a cluster's", async () => {
  const pdb = `apiVersion: {{ if .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}policy/v1{{ else }}policy/v1beta1{{ end }}
kind: PodDisruptionBudget
metadata:
  name: {{ .Release.Name }}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: guestbook}}
`;
  const current = await snapshotOf({ ...helmGuestbook(1), 'helm-guestbook/templates/pdb.yaml': pdb });
  assert.equal(current.model.problems, []);
  assert.ok(current.model.templates.get('policy/v1/PodDisruptionBudget/default/helm-guestbook'));
  // A unit rendered for a Kubernetes older than 1.25 gets helm's own list only, as before: its policy/v1beta1 PDB is
  // then refused, as Karmada's own API server (1.3x) refuses it whatever the chart was rendered for, and the unit
  // (held whole, as any unit with an error) keeps its last output.
  const old = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/templates/pdb.yaml': pdb,
    'helm-guestbook/flotilla-unit.yaml':
      'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  kubeVersion: "1.24.0"\n',
  });
  assert.equal(
    old.model.problems.map((p) => p.code),
    ['INVALID_VALUE'],
  );
  // A unit with an error is held whole.
  assert.equal([...old.model.unreadableFiles], ['helm-guestbook/Chart.yaml']);
});

test("a chart sees the built-in kinds' group/versions in .Capabilities.APIVersions, those helm itself does not know included, as Argo CD passes a cluster's", async () => {
  // prometheus-adapter's APIService: helm's own list lacks the aggregator's group, which every kube-apiserver serves.
  const apiService = `apiVersion: {{ if .Capabilities.APIVersions.Has "apiregistration.k8s.io/v1" }}apiregistration.k8s.io/v1{{ else }}apiregistration.k8s.io/v1beta1{{ end }}
kind: APIService
metadata:
  name: v1beta1.custom.metrics.k8s.io
spec:
  service: {name: adapter, namespace: default}
  group: custom.metrics.k8s.io
  version: v1beta1
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 100
  versionPriority: 100
`;
  const current = await snapshotOf({ ...helmGuestbook(1), 'helm-guestbook/templates/apiservice.yaml': apiService });
  assert.equal(current.model.problems, []);
  assert.ok(current.model.templates.get('apiregistration.k8s.io/v1/APIService//v1beta1.custom.metrics.k8s.io'));
});

test("Argo CD's skipCrds, skipSchemaValidation, skipTests and fileParameters reach helm as Argo CD passes them", async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/values.schema.json': '{"type": "object", "properties": {"replicaCount": {"type": "string"}}}',
    'helm-guestbook/files/app.conf': 'listen 8080\n',
    'helm-guestbook/templates/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  app.conf: {{ .Values.conf | quote }}
`,
    'helm-guestbook/crds/widgets.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
`,
    'helm-guestbook/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  skipCrds: true
  skipSchemaValidation: true
  skipTests: true
  fileParameters:
    - {name: conf, path: files/app.conf}
`,
  });
  assert.equal(snapshot.model.problems, []);
  const config = snapshot.model.templates.get('v1/ConfigMap/default/app-config');
  assert.equal((config!.manifest as { data: unknown }).data, { 'app.conf': 'listen 8080\n' });
  assert.not.ok(
    [...snapshot.model.templates.keys()].some((k) => k.includes('CustomResourceDefinition')),
    'skipCrds leaves crds/ out',
  );
});

test('a file parameter outside the chart, skipTests: false and skipCrds against includeCRDs are refused at their lines', () => {
  const file = 'apps/web/flotilla-unit.yaml';
  const text = `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  includeCRDs: true
  skipCrds: true
  skipTests: false
  fileParameters:
    - {name: conf, path: ../shared/app.conf}
`;
  const { problems } = parseUnitOptions('helm', file, parseDocuments(file, new TextEncoder().encode(text)).documents);
  assert.equal(
    problems.map((p) => [p.line, p.code]),
    [
      [6, 'INVALID_VALUE'],
      [8, 'INVALID_VALUE'],
      [5, 'INVALID_VALUE'],
    ],
  );
  assert.match(problems[1]!.fix, "move the file into the chart's folder");
  for (const outside of ['/etc/hostname', 'files/../../shared/app.conf', '.', 'https://example.com/app.conf'])
    assert.equal(
      parseUnitOptions(
        'helm',
        file,
        parseDocuments(
          file,
          new TextEncoder().encode(
            `apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  fileParameters:\n    - {name: conf, path: "${outside}"}\n`,
          ),
        ).documents,
      ).problems.map((p) => p.line),
      [5],
      outside,
    );
});

test("a file parameter's path is taken as Argo CD takes it, relative to the chart's folder, ./ and all", async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/files/app.conf': 'listen 8080\n',
    'helm-guestbook/templates/config.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  conf: {{ .Values.conf | quote }}\n',
    'helm-guestbook/flotilla-unit.yaml':
      'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  fileParameters:\n    - {name: conf, path: ./files/../files/app.conf}\n',
  });
  assert.equal(snapshot.model.problems, []);
  const config = [...snapshot.model.templates.values()].find(
    (t) => (t.manifest.metadata as { name?: string } | undefined)?.name === 'app-config',
  );
  assert.equal(config?.manifest.data, { conf: 'listen 8080\n' });
});

test('a file parameter reads only the one file of the chart it names, whatever its name and path hold', async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/files/app.conf': 'listen 8080\n',
    'helm-guestbook/files/a,b=x': 'x\n',
    'helm-guestbook/templates/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  a: {{ .Values.a | quote }}
  b: {{ .Values.b | quote }}
`,
    'helm-guestbook/flotilla-unit.yaml': `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  fileParameters:
    - {name: "a=/etc/hostname,c", path: files/app.conf}
    - {name: d, path: "files/app.conf,b=/etc/passwd"}
    - {name: 'e\\', path: 'files/a\\,b=x'}
`,
  });
  assert.equal(
    snapshot.model.problems.map((p) => [p.line, p.code, p.message.split(':')[0]]),
    [
      [5, 'INVALID_VALUE', 'spec.fileParameters[0].name is "a=/etc/hostname,c"'],
      [6, 'INVALID_VALUE', 'spec.fileParameters[1].path is "files/app.conf,b=/etc/passwd"'],
      [7, 'INVALID_VALUE', 'spec.fileParameters[2].name is "e\\\\"'],
      [7, 'INVALID_VALUE', 'spec.fileParameters[2].path is "files/a\\\\,b=x"'],
    ],
  );
  assert.equal([...snapshot.model.unreadableFiles], ['helm-guestbook/Chart.yaml']);
  assert.not.ok(snapshot.model.templates.has('v1/ConfigMap/default/app-config'));
});

test('validate reports a misspelt option at its line with the field it meant, and the unit is held', async () => {
  const snapshot = await snapshotOf({
    ...helmGuestbook(1),
    'helm-guestbook/flotilla-unit.yaml': 'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  relaseName: web\n',
  });
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.fix]),
    [['helm-guestbook/flotilla-unit.yaml', 4, 'UNKNOWN_FIELD', 'did you mean spec.releaseName?']],
  );
  assert.ok(snapshot.model.unreadableFiles.has('helm-guestbook/Chart.yaml'));
});

test('validate names the missing tool and how to install it', async () => {
  configureToolSearch({ pinnedDir: '/nonexistent', searchPath: '' });
  const snapshot = await snapshotOf({ ...helmGuestbook(1), ...KUSTOMIZE_GUESTBOOK });
  configureToolSearch(original);
  const missing = snapshot.model.problems.filter((p) => p.code === 'TOOL_MISSING');
  assert.equal(
    missing.map((p) => [p.file, p.message.split(' ')[0]]),
    [
      ['helm-guestbook/Chart.yaml', 'helm'],
      ['kustomize-guestbook/kustomization.yaml', 'kustomize'],
    ],
  );
  assert.match(missing[0]!.fix, /npm ci/);
});

test("Argo CD's image overrides read as kustomize images entries", () => {
  assert.equal(kustomizeImage('nginx:1.27'), { name: 'nginx', newTag: '1.27' });
  assert.equal(kustomizeImage('nginx=registry.local:5000/nginx:1.27'), {
    name: 'nginx',
    newName: 'registry.local:5000/nginx',
    newTag: '1.27',
  });
  assert.equal(kustomizeImage('nginx@sha256:abc'), { name: 'nginx', digest: 'sha256:abc' });
  assert.equal(
    kustomizeImage('nginx:1.27@sha256:abc'),
    { name: 'nginx', newTag: '1.27', digest: 'sha256:abc' },
    'a tag and a digest split at the first : and @, as kustomize splits them',
  );
  assert.equal(kustomizeImage('nginx=nginx:1.27'), { name: 'nginx', newName: 'nginx', newTag: '1.27' });
  assert.is(kustomizeImage('nginx'), undefined, 'kustomize edit set image refuses a bare name');
});

test('an image override naming neither a new name, a tag nor a digest is refused at its line, as kustomize edit set image refuses it', () => {
  const file = 'web/flotilla-unit.yaml';
  const text = 'apiVersion: flotilla.io/v1alpha1\nkind: KustomizeUnit\nspec:\n  images: [nginx]\n';
  const read = parseUnitOptions('kustomize', file, parseDocuments(file, new TextEncoder().encode(text)).documents);
  assert.equal(
    read.problems.map((p) => [p.line, p.code]),
    [[4, 'INVALID_VALUE']],
  );
  assert.match(read.problems[0]!.message, /bare name/);
});

test("a unit's clusterAffinity is checked as a policy's placement.clusterAffinity is, at the field's line", () => {
  const file = 'apps/staging/flotilla-unit.yaml';
  const read = (text: string) =>
    parseUnitOptions('kustomize', file, parseDocuments(file, new TextEncoder().encode(text)).documents);
  const bad = read(`apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  clusterAffinity:
    clusterName: [staging]
    fieldSelector:
      matchExpressions:
        - {key: country, operator: In, values: [de]}
`);
  assert.equal(
    bad.problems.map((p) => [p.line, p.code, p.message]),
    [[5, 'UNKNOWN_FIELD', 'unknown field spec.clusterAffinity.clusterName; did you mean clusterNames?']],
  );
  assert.is(bad.options.scope, undefined);
  const rule = read(`apiVersion: flotilla.io/v1alpha1
kind: KustomizeUnit
spec:
  clusterAffinity:
    fieldSelector:
      matchExpressions:
        - {key: country, operator: In, values: [de]}
`);
  assert.equal(
    rule.problems.map((p) => [p.line, p.code, p.fix]),
    [[7, 'INVALID_VALUE', 'use one of: provider, region, zone (select on cluster labels with labelSelector instead)']],
  );
  const good = read(
    `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  clusterAffinity: {labelSelector: {matchLabels: {env: production}}}
`.replace('HelmUnit', 'KustomizeUnit'),
  );
  assert.equal(good.problems, []);
  assert.equal(good.options, {
    tool: 'kustomize',
    kustomize: {},
    scope: { labelSelector: { matchLabels: { env: 'production' } } },
  });
});

test.run();
