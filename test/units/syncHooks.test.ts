import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { describeTemplateUnit } from '../../src/units/describeUnit.ts';
import { helmSkippedHooks, hookDisposition } from '../../src/units/syncHooks.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readTemplateSource } from '../../src/audits/readTemplateUnit.ts';
import { formatBlame } from '../../src/commands/blameCommand.ts';
import { runProgram } from '../helpers/runProgram.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import { deploymentPolicy, makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook } from './unitFixtures.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const { repos } = unitSuite(test);

const annotated = (annotations: Record<string, string>) => ({ metadata: { name: 'x', annotations } });
const hooked = (hook: string) => annotated({ 'helm.sh/hook': hook });

test("a helm.sh/hook or argocd.argoproj.io/hook sorts an object as Argo CD's sync does", () => {
  assert.equal(hookDisposition({ metadata: { name: 'x' } }), { kind: 'object' });
  // Helm 2's CRD hook is a plain CRD to Argo CD (gitops-engine hook/helm IsHook).
  assert.equal(hookDisposition(hooked('crd-install')), { kind: 'object' });
  assert.equal(hookDisposition(hooked('pre-install, pre-upgrade')), {
    kind: 'applied',
    hook: 'helm.sh/hook: pre-install, pre-upgrade',
    phases: ['PreSync'],
  });
  // One install or upgrade event makes it a sync hook, whatever else it names.
  assert.equal(hookDisposition(hooked('pre-delete,post-upgrade')).kind, 'applied');
  for (const h of ['pre-delete', 'post-delete', 'pre-rollback', 'post-rollback', 'test', 'test-success'])
    assert.equal(hookDisposition(hooked(h)), { kind: 'skipped', hook: `helm.sh/hook: ${h}` }, h);
  // Argo CD's own annotation wins over Helm's; Skip alone is never applied, SyncFail runs only on a failed sync.
  const argo = (hook: string, helm?: string) =>
    hookDisposition(annotated({ 'argocd.argoproj.io/hook': hook, ...(helm ? { 'helm.sh/hook': helm } : {}) }));
  assert.equal(argo('Sync', 'pre-delete'), {
    kind: 'applied',
    hook: 'argocd.argoproj.io/hook: Sync',
    phases: ['Sync'],
  });
  assert.equal(argo('Skip').kind, 'skipped');
  assert.equal(argo('SyncFail', 'post-install').kind, 'skipped');
  assert.equal(argo('PostSync,SyncFail').kind, 'applied');
  // A type Argo CD's sync does not know leaves Helm's in charge.
  assert.equal(argo('PreDelete', 'post-install').kind, 'applied');
  assert.equal(argo('PreDelete').kind, 'skipped');
});

test('the hooks helm template leaves out unasked are warnings at the chart, test hooks not', () => {
  const stderr =
    'manifest_sorter.go:190: info: skipping unknown hook: "crd-install"\n' +
    'manifest_sorter.go:190: info: skipping unknown hook: "test-failure"\n' +
    'manifest_sorter.go:190: info: skipping unknown hook: "crd-install"\n';
  assert.equal(
    helmSkippedHooks('c/Chart.yaml', stderr).map((p) => [
      p.file,
      p.code,
      p.severity,
      p.message.includes('crd-install'),
    ]),
    [['c/Chart.yaml', 'HOOK_NOT_RENDERED', 'warning', true]],
  );
});

const job = (name: string, hook: string, extra = '') => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  annotations:
    helm.sh/hook: ${hook}${extra}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: run, image: busybox}]
`;

test("a chart's install hook renders as an ordinary object that plan and explain call a hook; delete and test hooks and helm's skipped ones are left out with a warning", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/hooks.yaml': [
        job('migrate', 'pre-install,pre-upgrade', '\n    helm.sh/hook-delete-policy: hook-succeeded'),
        job('cleanup', 'pre-delete'),
        job('smoke', 'test-success'),
      ].join('---\n'),
      'helm-guestbook/templates/crd.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: old-crd
  annotations:
    helm.sh/hook: crd-install
`,
    },
    'hooks',
  );
  for (const pass of ['run', 'cached']) {
    const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(
      [...snapshot.model.templates.keys()].sort(),
      [
        'apps/v1/Deployment/default/helm-guestbook',
        'batch/v1/Job/default/migrate',
        'v1/Service/default/helm-guestbook',
      ],
      pass,
    );
    assert.equal(
      snapshot.model.problems.map((p) => [
        p.file,
        p.line,
        p.code,
        p.severity,
        /cleanup|crd-install/.exec(p.message)?.[0],
      ]),
      [
        ['helm-guestbook/Chart.yaml', 1, 'HOOK_NOT_RENDERED', 'warning', 'crd-install'],
        ['helm-guestbook/templates/hooks.yaml', 14, 'HOOK_NOT_RENDERED', 'warning', 'cleanup'],
      ],
      pass,
    );
    const source = describeTemplateUnit(snapshot.model, snapshot.model.templates.get('batch/v1/Job/default/migrate'));
    assert.match(
      source ?? '',
      /hook \(helm\.sh\/hook: pre-install,pre-upgrade\), applied as an ordinary object and kept/,
    );
    assert.match(source ?? '', /PreSync/);
    assert.match(source ?? '', /not applied: helm\.sh\/hook-delete-policy: hook-succeeded/);
    assert.not.match(
      describeTemplateUnit(snapshot.model, snapshot.model.templates.get('apps/v1/Deployment/default/helm-guestbook'))!,
      /hook/,
    );
  }
});

test("a Kustomize folder's Argo CD hooks are sorted the same way: a PostSync Job renders, a SyncFail one is a warning", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'jobs/kustomization.yaml': 'resources: [jobs.yaml]\n',
      'jobs/jobs.yaml': [
        job('notify', 'x').replace('helm.sh/hook: x', 'argocd.argoproj.io/hook: PostSync'),
        job('alert', 'x').replace('helm.sh/hook: x', 'argocd.argoproj.io/hook: SyncFail'),
      ].join('---\n'),
    },
    'argo hooks',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal([...snapshot.model.templates.keys()], ['batch/v1/Job/default/notify']);
  assert.equal(
    snapshot.model.problems.map((p) => [p.code, p.severity, /alert/.test(p.message)]),
    [['HOOK_NOT_RENDERED', 'warning', true]],
  );
  assert.match(
    describeTemplateUnit(snapshot.model, snapshot.model.templates.get('batch/v1/Job/default/notify')) ?? '',
    /hook \(argocd\.argoproj\.io\/hook: PostSync\), applied as an ordinary object/,
  );
});

test("a plain file's hooks are sorted as a chart's are, as Argo CD reads both annotations on every object: a PreSync Job renders and plan and explain call it a hook, a delete, SyncFail or Skip one is a warning at its line", async () => {
  const argo = (name: string, hook: string) =>
    job(name, 'x').replace('helm.sh/hook: x', `argocd.argoproj.io/hook: ${hook}`);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'apps/app.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n',
      'policies/jobs.yaml': deploymentPolicy(['member1']).replace(
        'apps/v1\n      kind: Deployment',
        'batch/v1\n      kind: Job',
      ),
    },
    'app',
  );
  const base = r.git('rev-parse', 'HEAD');
  const head = r.commit(
    {
      'apps/jobs.yaml': [
        argo('migrate', 'PreSync'),
        job('cleanup', 'pre-delete'),
        argo('alert', 'SyncFail'),
        argo('never', 'Skip'),
        job('legacy', 'crd-install'),
      ].join('---\n'),
    },
    'hooks',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal([...snapshot.model.templates.keys()].sort(), [
    'batch/v1/Job/default/legacy',
    'batch/v1/Job/default/migrate',
    'v1/ConfigMap/default/app',
  ]);
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.severity, p.message.split(' is a hook')[0]]),
    [
      ['apps/jobs.yaml', 13, 'HOOK_NOT_RENDERED', 'warning', 'Job cleanup'],
      ['apps/jobs.yaml', 25, 'HOOK_NOT_RENDERED', 'warning', 'Job alert'],
      ['apps/jobs.yaml', 37, 'HOOK_NOT_RENDERED', 'warning', 'Job never'],
    ],
  );
  assert.match(snapshot.model.problems[1]!.message, /\(argocd\.argoproj\.io\/hook: SyncFail\)/);
  const source = describeTemplateUnit(snapshot.model, snapshot.model.templates.get('batch/v1/Job/default/migrate'));
  assert.match(
    source ?? '',
    /^apps\/jobs\.yaml:1; hook \(argocd\.argoproj\.io\/hook: PreSync\), applied as an ordinary object and kept/,
  );
  assert.is(describeTemplateUnit(snapshot.model, snapshot.model.templates.get('v1/ConfigMap/default/app')), undefined);
  assert.is(
    describeTemplateUnit(snapshot.model, snapshot.model.templates.get('batch/v1/Job/default/legacy')),
    undefined,
  );
  const plan = await readPlan(await openRepo(r.dir), { base, head });
  assert.equal(
    plan.sources?.map((s) => [s.ref, s.source]),
    [['batch/v1/Job/default/migrate', source]],
  );
  assert.match(renderPlanText(plan), /Sources:\n {2}Job default\/migrate: apps\/jobs\.yaml:1; hook/);
});

test('history and blame name a hook as plan and explain do, for a plain file and for a chart', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/hooks.yaml': job('migrate', 'pre-install,pre-upgrade'),
      'apps/jobs.yaml': job('notify', 'x').replace('helm.sh/hook: x', 'argocd.argoproj.io/hook: PostSync'),
      'apps/plain.yaml': job('plain', 'x').replace(/ {2}annotations:\n.*\n/, ''),
      'policies/jobs.yaml': deploymentPolicy(['member1']).replace(
        'apps/v1\n      kind: Deployment',
        'batch/v1\n      kind: Job',
      ),
    },
    'hooks',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const rendered = r.git('rev-parse', 'flotilla/rendered');
  const sourceOf = async (name: string) =>
    readTemplateSource(await openRepo(r.dir), rendered, (k) => k === `batch/v1/Job/default/${name}`);
  const chart = await sourceOf('migrate');
  assert.match(chart?.unit ?? '', /^Helm chart helm-guestbook /);
  assert.match(chart?.hook ?? '', /^hook \(helm\.sh\/hook: pre-install,pre-upgrade\), applied as an ordinary object/);
  const plain = await sourceOf('notify');
  assert.equal(
    { ...plain, hook: plain?.hook?.split(',')[0] },
    { file: 'apps/jobs.yaml', hook: 'hook (argocd.argoproj.io/hook: PostSync)' },
  );
  assert.equal(await sourceOf('plain'), { file: 'apps/plain.yaml' });

  const history = await runProgram(process.execPath, [BIN, 'history', '--repo', r.dir, 'job/notify']);
  assert.is(history.code, 0, history.stderr);
  assert.ok(
    history.stdout.startsWith('source: apps/jobs.yaml; hook (argocd.argoproj.io/hook: PostSync), applied as'),
    history.stdout,
  );
  const plainHistory = await runProgram(process.execPath, [BIN, 'history', '--repo', r.dir, 'job/plain']);
  assert.not.match(plainHistory.stdout, /^source:/);
  const text = formatBlame(
    {
      cluster: 'member1',
      object: { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'notify' },
      path: 'clusters/member1/default/job.batch_notify.yaml',
      appliedRenderedCommit: rendered,
      renderedHead: rendered,
      upToDate: true,
      source: { sha: rendered, author: 'Ada', email: 'ada@example.com', date: '', subject: 'hooks' },
      hook: plain!.hook!,
    },
    'flotilla/rendered',
  );
  assert.match(text, /\n {2}hook: {6}hook \(argocd\.argoproj\.io\/hook: PostSync\), applied as an ordinary object/);
  assert.not.match(text, /\n {2}unit:/);
});

test.run();
