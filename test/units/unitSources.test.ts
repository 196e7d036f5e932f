import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readTemplateUnit } from '../../src/audits/readTemplateUnit.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import { runProgram } from '../helpers/runProgram.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { GUESTBOOK_POLICY, helmGuestbook, KUSTOMIZE_GUESTBOOK } from './unitFixtures.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const HELM = 'Helm chart helm-guestbook (release helm-guestbook in default, values helm-guestbook/values.yaml';

async function guestbook(): Promise<{ r: ConfigRepo; base: string; head: string }> {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...KUSTOMIZE_GUESTBOOK,
      ...helmGuestbook(1),
      'policies/guestbook.yaml': GUESTBOOK_POLICY,
      'templates/plain.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n',
    },
    'guestbook',
  );
  const base = r.git('rev-parse', 'HEAD');
  const head = r.commit({ 'helm-guestbook/values.yaml': helmGuestbook(2)['helm-guestbook/values.yaml']! }, 'two');
  return { r, base, head };
}

test('plan names, per changed object, the Helm release and value files or the Kustomize folder that produced it', async () => {
  const { r, base, head } = await guestbook();
  const plan = await readPlan(await openRepo(r.dir), { base, head });
  assert.equal(
    plan.sources?.map((s) => s.ref),
    ['apps/v1/Deployment/default/helm-guestbook'],
  );
  assert.ok(plan.sources![0]!.source.startsWith(HELM), plan.sources![0]!.source);
  assert.match(plan.sources![0]!.source, /helm-guestbook\/templates\/deployment\.yaml$/);
  assert.match(renderPlanText(plan), /Sources:\n {2}Deployment default\/helm-guestbook: Helm chart/);

  const added = await readPlan(await openRepo(r.dir), { base: `${base}~0`, head: base });
  assert.equal(added.sources ?? [], [], 'nothing changes between a commit and itself');

  // A change made in the unit's options (inline values) names the options file among the sources.
  const optioned = r.commit(
    {
      'helm-guestbook/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  valuesObject: {replicaCount: 3}\n',
    },
    'three, inline',
  );
  const inline = await readPlan(await openRepo(r.dir), { base: head, head: optioned });
  assert.match(inline.sources![0]!.source, `${HELM}, options helm-guestbook/flotilla-unit.yaml; helm v`);
});

test('validate counts the units, explain, history and blame name the unit of a template, and nothing for a plain file', async () => {
  const { r } = await guestbook();
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const explain = await runProgram(process.execPath, [
    BIN,
    'explain',
    '--repo',
    r.dir,
    'deploy/kustomize-guestbook-ui',
  ]);
  assert.is(explain.code, 0, explain.stderr);
  assert.match(
    explain.stdout,
    /\n {2}source: Kustomize folder kustomize-guestbook \(kustomize-guestbook\/kustomization\.yaml; kustomize v5\.\d+\.\d+\), kustomize-guestbook\/guestbook-ui-deployment\.yaml\n/,
  );
  const validate = await runProgram(process.execPath, [BIN, 'validate', '--repo', r.dir]);
  assert.is(validate.code, 0, validate.stdout);
  assert.match(validate.stdout, /: 5 templates \(4 from 2 Helm and Kustomize units\), 1 propagation policies/);
  const history = await runProgram(process.execPath, [BIN, 'history', '--repo', r.dir, 'deploy/helm-guestbook']);
  assert.is(history.code, 0, history.stderr);
  assert.ok(history.stdout.startsWith(`source: ${HELM}; helm v3.`), history.stdout);
  // blame describes the rendered commit a cluster applied the same way.
  const rendered = r.git('rev-parse', 'flotilla/rendered');
  const unit = await readTemplateUnit(
    await openRepo(r.dir),
    rendered,
    (k) => k === 'v1/Service/default/helm-guestbook',
  );
  assert.ok(unit?.startsWith(`${HELM}; helm v3.`), unit);
  assert.is(
    await readTemplateUnit(await openRepo(r.dir), rendered, (k) => k === 'v1/ConfigMap/default/plain'),
    undefined,
  );
});

test("get and describe show a unit's template as the tool output it, in its namespace, and describe names the unit", async () => {
  const { r } = await guestbook();
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  // The index names the chart's Chart.yaml as the source file, which holds no Deployment: the view reads the output.
  const get = await runProgram(process.execPath, [BIN, 'get', 'deploy', '--repo', r.dir, '-o', 'wide']);
  assert.is(get.code, 0, get.stderr);
  assert.match(get.stdout, /\nhelm-guestbook +0\/2 .* helm-guestbook +gcr\.io\/google-samples\/gb-frontend:v5 /);
  assert.match(get.stdout, /\nkustomize-guestbook-ui +0\/1 .* guestbook-ui +gcr\.io\/google-samples\/gb-frontend:v5 /);
  const yaml = await runProgram(process.execPath, [BIN, 'get', 'svc', 'helm-guestbook', '--repo', r.dir, '-o', 'json']);
  assert.is(yaml.code, 0, yaml.stderr);
  assert.is(JSON.parse(yaml.stdout).spec?.type, 'ClusterIP', yaml.stdout);
  // In the release's namespace, as the output branch writes it, though the chart's template names none.
  assert.equal(JSON.parse(yaml.stdout).metadata, {
    name: 'helm-guestbook',
    namespace: 'default',
    labels: JSON.parse(yaml.stdout).metadata.labels,
  });
  const describe = await runProgram(process.execPath, [BIN, 'describe', 'deploy/helm-guestbook', '--repo', r.dir]);
  assert.is(describe.code, 0, describe.stderr);
  assert.match(
    describe.stdout,
    /\nSource File: +helm-guestbook\/Chart\.yaml\nUnit: +Helm chart helm-guestbook \(release helm-guestbook in default, values helm-guestbook\/values\.yaml; helm v3\./,
  );
  const plain = await runProgram(process.execPath, [BIN, 'describe', 'configmap/plain', '--repo', r.dir]);
  assert.not.match(plain.stdout, /\nUnit:/);
});

test.run();
