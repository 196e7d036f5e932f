import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readPlan } from '../../src/plans/readPlan.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { resolveValueFile, valueFileRefusal } from '../../src/units/helmValueFiles.ts';
import { configureToolSearch } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { GUESTBOOK_POLICY, helmGuestbook } from './unitFixtures.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const { repos, original } = unitSuite(test);

const options = (...valueFiles: string[]) => `apiVersion: flotilla.io/v1alpha1
kind: HelmUnit
spec:
  valueFiles:
${valueFiles.map((f) => `    - ${f}\n`).join('')}`;

test('a value file resolves as Argo CD resolves it: from the chart, from the root with a leading /, never outside the repository', () => {
  assert.is(resolveValueFile('apps/guestbook', 'values-prod.yaml'), 'apps/guestbook/values-prod.yaml');
  assert.is(resolveValueFile('apps/guestbook', '../../values/prod.yaml'), 'values/prod.yaml');
  assert.is(resolveValueFile('apps/guestbook', '/values/prod.yaml'), 'values/prod.yaml');
  assert.is(resolveValueFile('apps/guestbook', '../../../prod.yaml'), undefined);
  assert.is(resolveValueFile('apps/guestbook', '/'), undefined);
  assert.is(resolveValueFile('apps/guestbook', 'https://example.com/values.yaml'), undefined);
  assert.match(valueFileRefusal('apps/guestbook', '../../../prod.yaml')!.message, /outside the repository/);
  assert.match(valueFileRefusal('apps/guestbook', 'https://example.com/values.yaml')!.message, /a URL/);
  assert.is(valueFileRefusal('apps/guestbook', '../../values/prod.yaml'), undefined);
  // Inside the repository as a path (a folder `values.yaml,`), two files to helm, the second one the host's.
  assert.match(valueFileRefusal('apps/guestbook', 'values.yaml,/etc/passwd')!.message, /a comma, which helm reads/);
  assert.match(valueFileRefusal('apps/guestbook', 'v"x.yaml')!.message, /a double quote/);
});

test("a value file elsewhere in the repository is the chart's input: it renders, it is no manifest, and changing it re-renders the chart and shows in plan", async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/flotilla-unit.yaml': options('../values/prod.yaml'),
      'values/prod.yaml': 'replicaCount: 5\n',
      'policies/guestbook.yaml': GUESTBOOK_POLICY,
    },
    'values outside the chart',
  );
  const base = r.git('rev-parse', 'HEAD');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  const deployment = 'clusters/member1/default/deployment.apps_helm-guestbook.yaml';
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 5\n/);
  assert.not.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /values\/prod\.yaml/, 'no problem there');

  const head = r.commit({ 'values/prod.yaml': 'replicaCount: 6\n' }, 'six');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 6\n/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);

  const plan = await readPlan(await openRepo(r.dir), { base, head });
  assert.equal(plan.errors, []);
  assert.equal(
    plan.replicas.map((m) => [m.ref, m.cluster, m.from, m.to]),
    [['apps/v1/Deployment/default/helm-guestbook', 'member1', 5, 6]],
  );
  assert.match(plan.sources?.[0]?.source ?? '', /values helm-guestbook\/values\.yaml, values\/prod\.yaml/);

  // Named no more, the file is a file of the commit again, read as any other (here: it holds no object).
  r.commit({ 'helm-guestbook/flotilla-unit.yaml': null }, 'no options');
  const report = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(
    report.reports.at(-1)!.problems.map((p) => [p.file, p.code]),
    [['values/prod.yaml', 'MISSING_FIELD']],
  );
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok, 'the same as a cold render');
});

test("a value file outside the repository, a symbolic link, a missing one or another team's policy holds the chart at the option's line; the policy stays a policy", async () => {
  configureToolSearch(original);
  const snapshotOf = async (valueFiles: string[], extra: Record<string, string> = {}, link?: [string, string]) => {
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        ...helmGuestbook(1),
        'helm-guestbook/flotilla-unit.yaml': options(...valueFiles),
        'policies/guestbook.yaml': GUESTBOOK_POLICY,
        ...extra,
      },
      'refused',
    );
    if (link) {
      mkdirSync(path.dirname(path.join(r.dir, link[0])), { recursive: true });
      symlinkSync(link[1], path.join(r.dir, link[0]));
      r.commit({}, 'link');
    }
    return renderSnapshot(await openRepo(r.dir), 'HEAD');
  };
  const located = (s: Awaited<ReturnType<typeof snapshotOf>>) =>
    s.model.problems.map((p) => [p.file, p.line, p.column, p.code, p.message.split(':')[0]]);

  const outside = await snapshotOf(['../../prod.yaml']);
  assert.equal(located(outside), [
    [
      'helm-guestbook/flotilla-unit.yaml',
      5,
      7,
      'INVALID_VALUE',
      '../../prod.yaml resolves outside the repository (Argo CD refuses it too)',
    ],
  ]);
  assert.ok(outside.model.unreadableFiles.has('helm-guestbook/Chart.yaml'));

  const policy = await snapshotOf(['values.yaml', '../policies/guestbook.yaml']);
  assert.equal(located(policy), [
    [
      'helm-guestbook/flotilla-unit.yaml',
      6,
      7,
      'INVALID_VALUE',
      'value file ../policies/guestbook.yaml holds Kubernetes objects (PropagationPolicy)',
    ],
  ]);
  assert.equal(
    policy.model.propagationPolicies.map((p) => p.source.file),
    ['policies/guestbook.yaml'],
  );

  const linked = await snapshotOf(['../values/prod.yaml'], { 'helm-guestbook/values-prod.yaml': 'replicaCount: 2\n' }, [
    'values/prod.yaml',
    '../helm-guestbook/values-prod.yaml',
  ]);
  // The link is the chart's input all the same: never read as a manifest (it would be no object there).
  assert.equal(located(linked), [
    [
      'helm-guestbook/flotilla-unit.yaml',
      5,
      7,
      'INVALID_VALUE',
      'value file ../values/prod.yaml is a symbolic link (to ../helm-guestbook/values-prod.yaml)',
    ],
  ]);

  // A folder named `values.yaml,` makes the path one file of the commit; helm would split it and read the host's file.
  const comma = await snapshotOf(['values.yaml,/etc/hostname'], {
    'helm-guestbook/values.yaml,/etc/hostname': 'x: 1\n',
  });
  assert.equal(located(comma), [
    [
      'helm-guestbook/flotilla-unit.yaml',
      5,
      7,
      'INVALID_VALUE',
      'values.yaml,/etc/hostname holds a comma, which helm reads as a separator of several value files',
    ],
  ]);
  assert.ok(comma.model.unreadableFiles.has('helm-guestbook/Chart.yaml'), 'the chart is held, helm never runs');

  const missing = await snapshotOf(['../values/none.yaml']);
  assert.equal(located(missing), [
    [
      'helm-guestbook/flotilla-unit.yaml',
      5,
      7,
      'INVALID_VALUE',
      'value file ../values/none.yaml is not in this commit (values/none.yaml)',
    ],
  ]);
});

test('with ignoreMissingValueFiles a value file the commit lacks is passed over, and once committed it renders', async () => {
  configureToolSearch(original);
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/flotilla-unit.yaml': `${options('values-missing.yaml', '../values/later.yaml')}  ignoreMissingValueFiles: true\n`,
      'policies/guestbook.yaml': GUESTBOOK_POLICY,
    },
    'optional values',
  );
  const first = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(first.reports.at(-1)!.problems, []);
  const deployment = 'clusters/member1/default/deployment.apps_helm-guestbook.yaml';
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 1\n/);

  r.commit({ 'values/later.yaml': 'replicaCount: 7\n' }, 'values come');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.match(r.show('flotilla/rendered', deployment), /\n {2}replicas: 7\n/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test.run();
