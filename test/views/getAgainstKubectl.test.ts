// `flotilla get` against the real kubectl: the same objects, served by the member emulator to kubectl and read from
// Git by flotilla, print the same bytes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { MemberHarness } from '../members/helpers/memberHarness.ts';
import { RENDERED, runReadCommand } from './helpers/fleetRepo.ts';

/** A namespaced example.com/v1 CRD that keeps any field, with these printer columns (YAML flow mappings). */
const exampleCrd = (kind: string, plural: string, columns: readonly string[]) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: ${kind}, plural: ${plural}, singular: ${kind.toLowerCase()}}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      additionalPrinterColumns:
${columns.map((c) => `        - ${c}\n`).join('')}`;
// Every cell type, each with a value of its type, of another type and none; no Age column, whose time differs.
const CRD = exampleCrd('Gadget', 'gadgets', [
  '{name: Size, type: integer, jsonPath: .spec.size}',
  '{name: Ratio, type: number, jsonPath: .spec.ratio}',
  '{name: Ok, type: boolean, jsonPath: .spec.ok}',
  '{name: When, type: date, jsonPath: .spec.when}',
  '{name: Labels, type: string, jsonPath: .spec.labels}',
  `{name: Ready, type: string, jsonPath: '.spec.conditions[?(@.type=="Ready")].status'}`,
  '{name: Note, type: string, jsonPath: .spec.note}',
]);
const GADGETS = `apiVersion: example.com/v1
kind: Gadget
metadata: {name: small, namespace: default, labels: {app: shop, example.com/tier: web}}
spec:
  size: 3.7
  ratio: 1234567.5
  ok: true
  when: ""
  labels: {b: "<x&y>", "10": 1, "9": 2}
  note: "first line\\nsecond line"
  conditions: [{type: Synced, status: "False"}, {type: Ready, status: "True"}]
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: odd, namespace: default, labels: {app: shop}}
spec: {size: three, ratio: 1000000, ok: "yes", when: "2020-01-01", labels: [], note: 12}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: tiny, namespace: default}
spec: {ratio: 0.00001, labels: {}}
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: gadgets}
spec:
  resourceSelectors: [{apiVersion: example.com/v1, kind: Gadget}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
// More than twelve objects, where Go's sort stops being an insertion sort, with equal and missing values.
const WIDGET_CRD = exampleCrd('Widget', 'widgets', [
  '{name: Size, type: integer, jsonPath: .spec.size}',
  '{name: Mem, type: string, jsonPath: .spec.mem}',
]);
const MEMORY = ['1Gi', '512Mi', '1024Mi', '2G', '900M', 'lots', '10', '9', '0.5', 'big'];
const WIDGETS = Array.from(
  { length: 23 },
  (_, i) => `apiVersion: example.com/v1
kind: Widget
metadata: {name: w${String((i * 7) % 23).padStart(2, '0')}, namespace: default}
spec: {${i % 5 === 4 ? '' : `size: ${i % 3}, `}mem: "${MEMORY[i % MEMORY.length]}"}
`,
).join('---\n');
const WIDGET_POLICY = POLICY.replaceAll('gadgets', 'widgets').replace('Gadget', 'Widget');
// A cluster-scoped kind, for tables of several types with -A.
const GLOBE_CRD = exampleCrd('Globe', 'globes', ['{name: Size, type: integer, jsonPath: .spec.size}']).replace(
  'scope: Namespaced',
  'scope: Cluster',
);
const GLOBES = 'apiVersion: example.com/v1\nkind: Globe\nmetadata: {name: earth}\nspec: {size: 1}\n';
const GLOBE_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: globes}
spec:
  resourceSelectors: [{apiVersion: example.com/v1, kind: Globe}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
// A kind that joins kubectl's `all` and a category of its own, with a selectable field, beside built-in kinds of
// `all` and one outside it, in a namespace of their own (default has the member's kubernetes Service).
const TOY_CRD = `${exampleCrd('Toy', 'toys', ['{name: Size, type: integer, jsonPath: .spec.size}'])
  .replace('singular: toy}', 'singular: toy, categories: [all, playthings]}')
  .replace(
    '      additionalPrinterColumns:',
    '      selectableFields: [{jsonPath: .spec.color}]\n      additionalPrinterColumns:',
  )}`;
const SHOP = `apiVersion: example.com/v1
kind: Toy
metadata: {name: ball, namespace: shop, labels: {app: shop}}
spec: {size: 3, color: red}
---
apiVersion: example.com/v1
kind: Toy
metadata: {name: kite, namespace: shop}
spec: {size: 9, color: blue}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: shop, labels: {app: shop}}
spec:
  schedule: "0 0 * * *"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: conf, namespace: shop, labels: {app: shop}}
data: {a: b}
`;
const SHOP_POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: example.com/v1, kind: Toy}, {apiVersion: batch/v1, kind: CronJob}, {apiVersion: v1, kind: ConfigMap}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let repo: TempRepo;

test.before(async () => {
  const member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
  const crd = await kubectl(['apply', '-f', '-'], CRD);
  assert.is(crd.code, 0, crd.stderr);
  const widgetCrd = await kubectl(['apply', '-f', '-'], WIDGET_CRD);
  assert.is(widgetCrd.code, 0, widgetCrd.stderr);
  const globeCrd = await kubectl(['apply', '-f', '-'], GLOBE_CRD);
  assert.is(globeCrd.code, 0, globeCrd.stderr);
  const toyCrd = await kubectl(['apply', '-f', '-'], TOY_CRD);
  assert.is(toyCrd.code, 0, toyCrd.stderr);
  const shop = await kubectl(['create', 'namespace', 'shop']);
  assert.is(shop.code, 0, shop.stderr);
  const shopObjects = await kubectl(['apply', '--server-side', '-f', '-'], SHOP);
  assert.is(shopObjects.code, 0, shopObjects.stderr);
  const objects = await kubectl(['apply', '--server-side', '-f', '-'], `${GADGETS}---\n${WIDGETS}---\n${GLOBES}`);
  assert.is(objects.code, 0, objects.stderr);
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, {
    'crds/gadgets.yaml': CRD,
    'templates/gadgets.yaml': GADGETS,
    'policies/gadgets.yaml': POLICY,
    'crds/widgets.yaml': WIDGET_CRD,
    'templates/widgets.yaml': WIDGETS,
    'policies/widgets.yaml': WIDGET_POLICY,
    'crds/globes.yaml': GLOBE_CRD,
    'templates/globes.yaml': GLOBES,
    'policies/globes.yaml': GLOBE_POLICY,
    'crds/toys.yaml': TOY_CRD,
    'templates/shop.yaml': SHOP,
    'policies/shop.yaml': SHOP_POLICY,
  });
  commitAll(repo, 'Add gadgets');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});

test.after(async () => {
  repo?.cleanup();
  await harness.cleanup();
});

const flotilla = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test("a custom resource's printer-column cells print as kubectl prints them from a real API server's Table", async () => {
  const real = await kubectl(['get', 'gadgets']);
  assert.is(real.code, 0, real.stderr);
  const ours = await flotilla('gadgets');
  assert.is(ours.code, 0, ours.err);
  assert.is(ours.out, real.stdout);
  // What the comparison covers, so that both sides printing nothing would not pass.
  assert.match(
    ours.out,
    /^small +3 +1\.2345675e\+06 +true +<unknown> +\{"10":1,"9":2,"b":"\\u003cx\\u0026y\\u003e"\} +True +first line\.\.\.$/m,
  );
  assert.match(ours.out, /^odd +1000000 +<invalid> +\[\] +12$/m);
  assert.match(ours.out, /^tiny +1e-05 +\{\} +$/m);
});

test("a missing object and an unknown resource type: kubectl's error line and exit code 1", async () => {
  for (const args of [['gadget', 'nope'], ['gadgets', 'nope', '-o', 'json'], ['gizmos']]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err.split('\n')[0], real.stderr.trimEnd(), args.join(' '));
  }
});

test('--no-headers, --show-labels and -L print the rows and label columns kubectl prints', async () => {
  for (const args of [
    ['gadgets', '--show-labels'],
    ['gadgets', '-L', 'app', '-L', 'example.com/tier,zone'],
    ['gadgets', '--no-headers', '-L', 'app', '--show-labels'],
    ['gadgets', 'tiny', '--no-headers'],
  ]) {
    const real = await kubectl(['get', ...args]);
    assert.is(real.code, 0, real.stderr);
    assert.is((await flotilla(...args)).out, real.stdout, args.join(' '));
  }
  const labelled = await flotilla('gadgets', '-L', 'app', '-L', 'example.com/tier,zone', '--show-labels');
  assert.match(labelled.out, / +APP +TIER +ZONE +LABELS\n/);
  assert.match(labelled.out, /^small .* +shop +web +app=shop,example\.com\/tier=web$/m);
  assert.match(labelled.out, /^tiny .* +<none>$/m);
});

test('-o name of an empty list prints nothing, on stdout or stderr, as kubectl does', async () => {
  for (const args of [
    ['gadgets', '-l', 'nope=1', '-o', 'name'],
    ['gadgets', '-l', 'nope=1'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(ours.code, real.code, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
  assert.is((await flotilla('gadgets', '-l', 'nope=1', '-o', 'name')).err, '');
});

test("describe of a missing object or an unknown resource type: kubectl's error line and exit code 1", async () => {
  for (const args of [['gadget', 'nope'], ['gadgets/nope'], ['foo', 'bar']]) {
    const real = await kubectl(['describe', ...args]);
    const ours = await runReadCommand(describeCommand, repo.path, NOW, args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err.split('\n')[0], real.stderr.trimEnd(), args.join(' '));
  }
});

test('--watch is refused, naming what to run instead', async () => {
  for (const flag of ['-w', '--watch', '--watch-only'])
    try {
      await flotilla('gadgets', flag);
      assert.unreachable(flag);
    } catch (err) {
      assert.match((err as Error).message, 'kubectl --context CLUSTER get -w');
    }
});

// The block of `-o json` text that holds `key`'s value, at the object's top level (four spaces in).
const block = (json: string, key: string) => new RegExp(`\\n {4}"${key}": \\{\\n[^]*?\\n {4}\\}`).exec(json)?.[0];

test('-o json prints keys in byte order and escapes <, > and & as kubectl does', async () => {
  const real = await kubectl(['get', 'gadget', 'small', '-o', 'json']);
  assert.is(real.code, 0, real.stderr);
  const ours = await flotilla('gadget', 'small', '-o', 'json');
  const spec = block(real.stdout, 'spec');
  assert.ok(spec, real.stdout);
  assert.is(block(ours.out, 'spec'), spec);
  assert.match(spec!, '"10": 1,\n            "9": 2,\n            "b": "\\u003cx\\u0026y\\u003e"');
});

test('-o jsonpath, jsonpath-as-json and jsonpath-file print what kubectl prints, for a list and for one object', async () => {
  const file = join(repo.path, 'template.jsonpath');
  writeFileSync(file, '{range .items[*]}{.metadata.name}{"\\t"}{.spec.size}{"\\n"}{end}');
  for (const args of [
    ['gadgets', '-o', 'jsonpath={.items[*].metadata.name}'],
    ['gadgets', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\t"}{.metadata.labels}{"\\n"}{end}'],
    ['gadgets', '-o', 'jsonpath={.items[?(@.metadata.name>"p")].metadata.name} {.items[-1:].spec.ratio}'],
    ['gadgets', '-o', "jsonpath={.items[0].spec.conditions[?(@.type=='Ready')].status}"],
    ['gadgets', '-o', 'jsonpath={.items[*].spec.ratio}'],
    ['gadgets', '-o', 'jsonpath={..conditions[1:]}'],
    ['gadgets', '-o', 'jsonpath={.kind} {.nope}'],
    ['gadgets', '-o', 'jsonpath-as-json={.items[*].spec.size}'],
    ['gadgets', '-o', `jsonpath-file=${file}`],
    ['gadget', 'small', '-o', 'jsonpath={.metadata.name}: {.spec.labels}'],
    ['gadgets', '-l', 'nope=1', '-o', 'jsonpath={.kind}:{.items}'],
  ]) {
    const real = await kubectl(['get', ...args]);
    assert.is(real.code, 0, real.stderr);
    assert.is((await flotilla(...args)).out, real.stdout, args.join(' '));
  }
  const ours = await flotilla('gadgets', '-o', 'jsonpath={.items[*].metadata.name}');
  assert.is(ours.out, 'odd small tiny');
});

test("-o jsonpath errors: kubectl's words and exit code 1", async () => {
  for (const args of [
    ['gadgets', '-o', 'jsonpath={.items[5]}'],
    // "yes" is a string: Go's comparison refuses it beside a bool.
    ['gadgets', '-o', 'jsonpath={.items[?(@.spec.ok==true)].metadata.name}'],
    ['gadgets', '-o', 'jsonpath={.items[?(@.spec.ratio<1)]}'],
    ['gadgets', '-o', 'jsonpath={.items[}'],
    ['gadgets', '-o', 'jsonpath='],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err.split('\n')[0], real.stderr.split('\n')[0], args.join(' '));
  }
});

test('--allow-missing-template-keys=false makes a missing field a jsonpath error; custom columns and --sort-by ignore it', async () => {
  for (const args of [
    ['gadgets', '--allow-missing-template-keys=false', '-o', 'jsonpath={.items[*].spec.size}'],
    ['gadgets', '--allow-missing-template-keys', '-o', 'jsonpath={.items[*].spec.nope}'],
    ['gadgets', '--allow-missing-template-keys=0', '-o', 'custom-columns=A:.spec.nope'],
    ['gadgets', '--allow-missing-template-keys=false', '--sort-by=.metadata.labels.app', '-o', 'name'],
    ['gadgets', '--allow-missing-template-keys=false', '--no-headers=false', '--show-labels=False'],
    ['gadgets', '--no-headers=true', '--all-namespaces=true'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 0, real.stderr);
    assert.is(ours.code, 0, ours.err);
    assert.is(ours.out, real.stdout, args.join(' '));
  }
  for (const args of [
    ['gadgets', '--allow-missing-template-keys=false', '-o', 'jsonpath={.items[*].spec.nope}'],
    ['gadget', 'small', '--allow-missing-template-keys=f', '-o', 'jsonpath={.spec.size} {.spec.nope}'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err.split('\n')[0], real.stderr.split('\n')[0], args.join(' '));
  }
  assert.match(
    (await flotilla('gadget', 'small', '--allow-missing-template-keys=false', '-o', 'jsonpath={.spec.nope}')).err,
    'nope is not found',
  );
});

test("--show-kind names each row kind.group/name in kubectl's own table only; --output-watch-events without a watch is kubectl's error", async () => {
  for (const args of [
    ['gadgets', '--show-kind'],
    ['gadget', 'small', '--show-kind', '--no-headers'],
    ['gadgets', '--show-kind=false'],
    ['gadgets', '--show-kind', '-o', 'name'],
    ['gadgets', '--show-kind', '-o', 'custom-columns=N:.metadata.name'],
    ['gadgets', '--output-watch-events=false', '-o', 'name'],
    ['gadgets', '--output-watch-events'],
    ['gadgets', '--output-watch-events', '--show-labels', '-o', 'name'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  assert.match((await flotilla('gadgets', '--show-kind')).out, /^gadget\.example\.com\/tiny /m);
  assert.is((await flotilla('gadgets', '--output-watch-events')).code, 1);
});

test('-o is chosen as kubectl chooses its printer: json, yaml and name in any case, --template beside jsonpath or custom-columns, an unknown format its error', async () => {
  for (const args of [
    ['gadgets', '-o', 'NAME'],
    ['gadget', 'small', '-o', 'Json'],
    ['gadgets', '-o', ''],
    ['gadgets', '-o', 'jsonpath', '--template={.items[*].metadata.name}'],
    ['gadgets', '-o', 'jsonpath-as-json', '--template={.kind}'],
    ['gadgets', '-o', 'custom-columns', '--template=N:.metadata.name'],
    ['gadgets', '-o', 'name', '--template=N:.metadata.name'],
    ['gadget', 'nope', '-o', 'bogus'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    const spec = (text: string) => (args.includes('Json') ? block(text, 'spec') : text);
    assert.is(spec(ours.out), spec(real.stdout), args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  for (const args of [
    ['gadgets', '-o', 'WIDE'],
    ['gadgets', '-o', 'JSONPATH={.kind}'],
    ['gadgets', '-o', 'jsonpath=x', '--template={.kind}'],
    ['gadgets', '-l', 'nope=1', '-o', 'bogus'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
  assert.is(
    (await flotilla('gadgets', '-o', 'NAME')).out,
    'gadget.example.com/odd\ngadget.example.com/small\ngadget.example.com/tiny\n',
  );
});

test('-o go-template, go-template-file, template, templatefile and --template print what kubectl prints, for a list and for one object', async () => {
  const file = join(repo.path, 'template.gotemplate');
  writeFileSync(file, '{{range .items}}{{.metadata.name}}{{"\\t"}}{{.spec.size}}{{"\\n"}}{{end}}');
  for (const args of [
    [
      'gadgets',
      '-o',
      'go-template={{range .items}}{{.metadata.name}} {{.spec.size}} {{.spec.ratio}} {{.spec.ok}}{{"\\n"}}{{end}}',
    ],
    ['gadgets', '-o', 'go-template={{.kind}} {{len .items}} {{.metadata}} {{(index .items 0).spec.labels}}'],
    ['gadget', 'small', '-o', 'go-template={{.metadata.name}}: {{.spec.labels}} {{.spec.conditions}} {{.spec.nope}}'],
    ['gadget', 'small', '-o', 'go-template={{range $k, $v := .spec.labels}}{{$k}}={{$v}};{{end}}'],
    ['gadget', 'small', '-o', 'go-template={{range .spec.conditions}}{{if eq .type "Ready"}}{{.status}}{{end}}{{end}}'],
    [
      'gadget',
      'small',
      '-o',
      'go-template={{printf "%s %5.2f %d %v %T" .metadata.name .spec.size 7 .spec.ratio .spec.ratio}}',
    ],
    ['gadget', 'odd', '-o', 'go-template={{.spec.ratio}} {{.spec.size}} {{.spec.note}} {{printf "%T" .spec.note}}'],
    [
      'gadget',
      'tiny',
      '-o',
      'go-template={{.spec.ratio}} {{with .spec.labels}}x{{else}}empty{{end}} {{exists . "spec" "ratio"}}',
    ],
    ['gadgets', '-o', 'go-template={{- range .items -}} {{ .metadata.name }}{{/* c */}} {{- end }}'],
    ['gadgets', '-o', `go-template-file=${file}`],
    ['gadgets', '-o', `templatefile=${file}`],
    ['gadgets', '-o', 'template={{.kind}}'],
    ['gadgets', '--template={{.kind}}'],
    ['gadgets', '-o', 'go-template', '--template={{.apiVersion}}'],
    ['gadgets', '-l', 'nope=1', '-o', 'go-template={{.kind}}:{{.items}}'],
  ]) {
    const real = await kubectl(['get', ...args]);
    assert.is(real.code, 0, real.stderr);
    const ours = await flotilla(...args);
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.code, 0, args.join(' '));
  }
  assert.is(
    (await flotilla('gadgets', '-o', 'go-template={{range .items}}{{.spec.ratio}} {{end}}')).out,
    '1000000 1.2345675e+06 1e-05 ',
  );
});

test("-o go-template errors: kubectl's words on stderr, its debugging text on stdout, and exit code 1", async () => {
  for (const args of [
    ['gadgets', '-o', 'go-template={{.kind}'],
    ['gadgets', '-o', 'go-template={{if .kind}}'],
    ['gadgets', '-o', 'go-template='],
    ['gadgets', '-o', 'go-template-file=/nonexistent/template'],
    ['gadget', 'small', '-o', 'go-template={{.spec.size}} {{.spec.labels.b.x}}'],
    ['gadget', 'small', '-o', 'go-template={{index .spec.conditions 5}}'],
    ['gadget', 'small', '-o', 'go-template={{.spec.nope}}', '--allow-missing-template-keys=false'],
    ['gadgets', '-o', 'go-template={{range .items}}{{.spec.nope}}{{end}}', '--allow-missing-template-keys=false'],
    ['gadget', 'odd', '-o', 'go-template={{lt .spec.size 3}}'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    // The dump of the object after "raw data was:" differs by what the API server adds (uid, managedFields).
    const upToData = (text: string) => text.split('\traw data was:')[0];
    assert.is(upToData(ours.out), upToData(real.stdout), args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
  assert.match(
    (await flotilla('gadgets', '-o', 'go-template={{.kind}')).err,
    'error: error parsing template {{.kind}, template: output:1: bad character U+007D',
  );
});

test('-o custom-columns and custom-columns-file print the cells and layout kubectl prints', async () => {
  const file = join(repo.path, 'columns.txt');
  writeFileSync(file, 'NAME   READY\n.metadata.name {.spec.conditions[?(@.type=="Ready")].status}\nignored line\n');
  for (const args of [
    [
      'gadgets',
      '-o',
      'custom-columns=NAME:.metadata.name,SIZE:spec.size,L:{.spec.labels},C:{spec.conditions},R:.spec.ratio,N:.spec.nope,OK:.spec.ok,T:.spec.conditions[*].type',
    ],
    ['gadgets', '-o', 'custom-columns=NAME:.metadata.name', '--no-headers'],
    ['gadgets', '-o', 'custom-columns=NAME:.metadata.name', '-L', 'app'],
    ['gadgets', '-o', 'custom-columns=A:.metadata.name,:.spec.size,B:'],
    ['gadgets', '-o', "custom-columns=A:.metadata.name,B:.spec.conditions[*]['type'],C:..type"],
    ['gadget', 'small', '-o', 'custom-columns=NAME:.metadata.name,NOTE:.spec.note,N:.spec.size'],
    ['gadgets', '-l', 'nope=1', '-o', 'custom-columns=NAME:.metadata.name'],
    ['gadgets', '-l', 'nope=1', '-o', 'custom-columns=NAME:.metadata.name', '--no-headers'],
    ['gadgets', '-o', `custom-columns-file=${file}`],
    ['gadgets', '-o', `custom-columns-file=${file}`, '--no-headers'],
  ]) {
    const real = await kubectl(['get', ...args]);
    assert.is(real.code, 0, real.stderr);
    assert.is((await flotilla(...args)).out, real.stdout, args.join(' '));
  }
  const ours = await flotilla(
    'gadgets',
    '-o',
    'custom-columns=NAME:.metadata.name,L:{.spec.labels},T:.spec.conditions[*].type',
  );
  assert.match(ours.out, /^small +map\[10:1 9:2 b:<x&y>\] +Synced,Ready$/m);
  assert.match(ours.out, /^tiny +map\[\] +<none>$/m);
  // A line break in a cell starts a new line of the table.
  assert.match(
    (await flotilla('gadget', 'small', '-o', 'custom-columns=N:.spec.note')).out,
    /^first line\nsecond line$/m,
  );
});

test("custom-columns errors and --show-labels beside another output: kubectl's words and exit code 1", async () => {
  const dir = join(repo.path, 'crds');
  const short = join(repo.path, 'short.txt');
  const uneven = join(repo.path, 'uneven.txt');
  writeFileSync(short, 'NAME\n');
  writeFileSync(uneven, 'NAME SIZE\n.metadata.name\n');
  for (const args of [
    ['gadgets', '-o', 'custom-columns='],
    ['gadgets', '-o', 'custom-columns'],
    ['gadgets', '-o', 'custom-columns=NAME'],
    ['gadgets', '-o', "custom-columns=A:.spec.conditions[*]['type','status']"],
    ['gadgets', '-o', 'custom-columns=NAME:{{.a}'],
    ['gadgets', '-o', 'custom-columns=A:.metadata.name,B:.a['],
    ['gadgets', '-o', 'custom-columns=A:.spec.conditions[5]'],
    ['gadgets', '-o', 'custom-columns=A:.spec.labels[*]'],
    ['gadgets', '-o', 'custom-columns-file=/nonexistent/columns'],
    ['gadgets', '-o', `custom-columns-file=${dir}`],
    ['gadgets', '-o', `custom-columns-file=${short}`],
    ['gadgets', '-o', `custom-columns-file=${uneven}`],
    ['gadgets', '-o', 'jsonpath-file=/nonexistent/template'],
    ['gadgets', 'nope', '-o', 'custom-columns='],
    ['gadgets', '-o', 'custom-columns=NAME:.metadata.name', '--show-labels'],
    ['gadgets', '-o', 'name', '--show-labels'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
});

test('--sort-by orders the table, names, lists and custom columns as kubectl does', async () => {
  for (const args of [
    ['widgets', '--sort-by=.spec.size'],
    ['widgets', '--sort-by=spec.size', '-o', 'name'],
    ['widgets', '--sort-by={.spec.mem}'],
    ['widgets', '--sort-by={spec.mem}', '-o', 'custom-columns=NAME:.metadata.name,MEM:.spec.mem'],
    ['widgets', '--sort-by=.spec.size', '-o', 'jsonpath={.items[*].metadata.name}'],
    ['widgets', '--sort-by=.metadata.name', '--no-headers'],
    ['gadgets', '--sort-by=.spec.conditions[0].type'],
    ['gadgets', '--sort-by=.spec.conditions[1].type', '-o', 'jsonpath={.items[*].metadata.name}'],
    ['gadgets', '--sort-by=.metadata.labels.app', '-o', 'jsonpath={.items[*].metadata.name}'],
    // A table kubectl cannot sort is not printed; one row is not sorted.
    ['gadgets', '--sort-by=.spec.nope'],
    ['gadgets', '--sort-by=.spec.conditions[5].type'],
    ['gadgets', '--sort-by={{.a}'],
    ['gadget', 'small', '--sort-by=.spec.nope'],
    ['gadget', 'small', '--sort-by=.spec.nope', '-o', 'name'],
  ]) {
    const real = await kubectl(['get', ...args]);
    assert.is(real.code, 0, real.stderr);
    const ours = await flotilla(...args);
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
  const names = (await flotilla('widgets', '--sort-by=.spec.mem', '-o', 'name')).out.split('\n');
  // Quantities by value, other strings by their bytes.
  assert.ok(names.indexOf('widget.example.com/w14') < names.indexOf('widget.example.com/w21'), names.join(' '));
});

test("--sort-by errors: kubectl's words and exit code 1", async () => {
  for (const args of [
    ['gadgets', '--sort-by=.spec.nope', '-o', 'name'],
    ['gadgets', '--sort-by=.spec.conditions[5].type', '-o', 'name'],
    ['gadgets', '--sort-by={{.a}', '-o', 'name'],
    ['gadgets', '--sort-by=.a[', '-o', 'yaml'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(real.code, 1, args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
  }
  // Values kubectl cannot compare end it (klog's fatal line, whose time and pid are its own), printing nothing.
  for (const args of [
    ['gadgets', '--sort-by=.spec.size'],
    ['gadgets', '--sort-by=.spec.ok', '-o', 'name'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(ours.code, real.code, args.join(' '));
    assert.is(ours.out, '', args.join(' '));
    assert.ok(real.stderr.endsWith(ours.err.replace(/^error: /, '')), `${args.join(' ')}: ${real.stderr}`);
  }
});

test('several types, several names and resource/name words print the tables, lists and errors kubectl prints', async () => {
  for (const args of [
    ['gadgets,widgets'],
    ['widgets,gadgets', '--no-headers'],
    ['gadgets,globes,widgets', '-A'],
    ['gadgets,widgets', '-L', 'app', '--show-labels'],
    ['gadgets,widgets', '-l', 'app=shop'],
    ['gadgets,widgets', '-l', 'nope=1'],
    ['globes,widgets', '-l', 'nope=1'],
    ['gadgets,gadget,gadgets.example.com'],
    ['gadgets,widgets', '-o', 'name'],
    ['gadgets,widgets', '-o', 'jsonpath={.kind}: {range .items[*]}{.kind}/{.metadata.name} {end}'],
    ['gadgets,globes', '-o', 'custom-columns=N:.metadata.name,K:.kind', '--sort-by=.metadata.name'],
    ['gadget', 'tiny', 'small', 'tiny'],
    ['gadget', 'small', 'nope', 'tiny'],
    ['gadget', 'small', 'nope', '-o', 'name'],
    ['gadget', 'nope1', 'nope2', '-o', 'json'],
    ['gadget', 'small', 'nope', '-o', 'custom-columns=A:.spec.labels[*]'],
    ['gadget/small', 'widget/w01', 'gadget/tiny'],
    ['gadget/small', 'widget/nope'],
    ['gadgets,widgets', 'small'],
    ['gadget/small', 'globe/earth', '-o', 'name'],
    // Several tables are sorted as Table objects first, which have no object field: kubectl refuses.
    ['widgets,gadgets', '--sort-by=.metadata.name'],
    ['gadget', 'small', 'tiny', '--sort-by=.spec.size'],
    ['gadgets,widgets', '--sort-by=.kind'],
    ['gadgets,widgets', '--sort-by=.metadata.name', '-o', 'name'],
    ['gadget/a/b'],
    ['gadget/small', 'globe/'],
    ['gadgets,', '-o', 'name'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(ours.out, real.stdout, args.join(' '));
    // Flotilla names the types it has after kubectl's error line for a type no one serves.
    assert.is(ours.err.replace(/^flotilla: no resource type .*\n/m, ''), real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  // What the comparison covers, so that both sides printing the same wrong thing would not pass.
  const selected = (await flotilla('gadgets,widgets', '-l', 'app=shop')).out;
  assert.match(selected, /^NAME +SIZE .*\ngadget\.example\.com\/odd .*\ngadget\.example\.com\/small .*\n$/);
  const both = (await flotilla('gadgets,widgets', '--no-headers')).out;
  assert.match(both, /^gadget\.example\.com\/tiny .*\nwidget\.example\.com\/w00 /m);
  const globes = (await flotilla('gadgets,globes', '-A')).out.split('\n\n')[1];
  assert.is(globes, 'NAMESPACE   NAME                      SIZE\n            globe.example.com/earth   1\n');
  const mixed = await flotilla('gadget', 'small', 'nope', 'tiny');
  assert.match(mixed.out, /^NAME +SIZE .*\nsmall .*\ntiny .*\n$/);
  assert.is(mixed.err, 'Error from server (NotFound): gadgets.example.com "nope" not found\n');
});

test("resource/name words beside a separate type: kubectl's refusal, naming the command that was run", async () => {
  const real = await kubectl(['get', 'gadget/small', 'tiny']);
  const ours = await flotilla('gadget/small', 'tiny');
  assert.is(real.code, 1);
  assert.is(ours.code, 1);
  assert.is(ours.out, '');
  assert.is(ours.err, real.stderr.replaceAll("'kubectl get", "'flotilla get"));
  assert.match(ours.err, /^error: there is no need to specify a resource type as a separate argument/);
});

// kubectl's AGE is the member's, flotilla's the commit's: the table is compared with that column's cells left out.
const withoutAge = (text: string) => {
  let ageLast = false;
  return text
    .split('\n')
    .map((line) => {
      const cells = line.split(/ {2,}/);
      if (cells.some((c) => c === 'NAME' || c.endsWith(' NAME'))) ageLast = cells.at(-1) === 'AGE';
      return (ageLast ? cells.slice(0, -1) : cells).join(' | ');
    })
    .join('\n');
};

test("get all and a CRD's own category list the category's types as kubectl expands them through discovery", async () => {
  for (const args of [
    ['all', '-n', 'shop'],
    ['all', '-n', 'shop', '-o', 'name'],
    ['all', '-n', 'shop', '-l', 'app=shop', '--show-kind'],
    ['all,cm', '-n', 'shop', '-o', 'name', '-l', 'app'],
    ['cm,all', '-n', 'shop', '-o', 'name', '-l', 'app=shop'],
    ['playthings', '-n', 'shop'],
    ['playthings', 'kite', '-n', 'shop'],
    ['all', '-n', 'nope'],
    ['all', 'ball', '-n', 'shop'],
    ['all/ball', '-n', 'shop'],
    ['all', '-n', 'shop', '-o', 'jsonpath={range .items[*]}{.kind}/{.metadata.name} {end}'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(withoutAge(ours.out), withoutAge(real.stdout), args.join(' '));
    assert.is(ours.err.replace(/^flotilla: no resource type .*\n/m, ''), real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  assert.is(
    (await flotilla('all', '-n', 'shop', '-o', 'name')).out,
    'cronjob.batch/nightly\ntoy.example.com/ball\ntoy.example.com/kite\n',
  );
  assert.match((await flotilla('all', '-n', 'shop')).out, /^cronjob\.batch\/nightly +0 0 \* \* \* /m);
});

test('--field-selector selects by the fields the API server selects each kind by, and its refusals are its words', async () => {
  for (const args of [
    ['toys', '-n', 'shop', '--field-selector', 'spec.color=red'],
    ['toys', '-n', 'shop', '--field-selector', ' spec.color!=red ', '-o', 'name'],
    ['all', '-n', 'shop', '--field-selector', 'metadata.name=ball'],
    ['cronjobs,toys', '-A', '--field-selector', 'metadata.namespace=shop', '-o', 'name'],
    ['cronjobs,toys', '-A', '--field-selector', 'metadata.namespace!=shop', '-o', 'json'],
    ['cm', '-n', 'shop', '--field-selector', 'metadata.name==conf', '-l', 'app=shop'],
    ['toys', '-n', 'shop', '--field-selector', ''],
    ['toys', '-n', 'shop', '--field-selector', 'spec.colour=red'],
    ['toys', '-n', 'shop', '--field-selector', 'spec.color=a=b'],
    ['cronjobs,toys', '-n', 'shop', '--field-selector', 'spec.color=red', '-l', 'app', '-o', 'name'],
    ['cronjobs', '-n', 'shop', '--field-selector', 'status.phase=Running'],
    ['clusters', '--field-selector', 'metadata.name=member1', '-o', 'name'],
  ]) {
    // Flotilla's clusters are the Karmada control plane's: kubectl reads a member's, which serves none.
    if (args[0] === 'clusters') continue;
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(withoutAge(ours.out), withoutAge(real.stdout), args.join(' '));
    assert.is(ours.err, real.stderr, args.join(' '));
    assert.is(ours.code, real.code, args.join(' '));
  }
  // Across `all` each type the selector does not fit is refused in its kind's words; the emulator's discovery lists
  // the types in an order of its own, so the lines are compared as a set.
  for (const args of [
    ['all', '-n', 'shop', '--field-selector', 'status.phase=Running'],
    ['all', '-n', 'shop', '--field-selector', 'nope'],
  ]) {
    const real = await kubectl(['get', ...args]);
    const ours = await flotilla(...args);
    assert.is(ours.out, real.stdout, args.join(' '));
    assert.equal(ours.err.split('\n').sort(), real.stderr.split('\n').sort(), args.join(' '));
    assert.is(ours.code, 1, args.join(' '));
  }
  assert.is(
    (await flotilla('toys', '-n', 'shop', '--field-selector', 'spec.color=red', '-o', 'name')).out,
    'toy.example.com/ball\n',
  );
  assert.match(
    (await flotilla('cronjobs', '-n', 'shop', '--field-selector', 'status.phase=Running')).err,
    '"status.phase" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
  assert.is(
    (await flotilla('clusters', '--field-selector', 'metadata.name=member1', '-o', 'name')).out,
    'cluster.cluster.karmada.io/member1\n',
  );
  try {
    await flotilla('toy', 'ball', '-n', 'shop', '--field-selector', 'metadata.name=ball');
    assert.unreachable('a name beside a field selector');
  } catch (err) {
    assert.match((err as Error).message, 'name cannot be provided when a selector is specified');
  }
});

test.run();
