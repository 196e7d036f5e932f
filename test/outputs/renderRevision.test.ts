import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepo, makeConfigRepoWith, MEMBERS, nginxSample, sample, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const NGINX_M3 = 'clusters/member3/default/deployment.apps_nginx.yaml';
const repos: ConfigRepo[] = [];

const nginxRepo = () => makeConfigRepoWith(repos, nginxSample(), 'nginx, weighted 1:1');

async function render(r: ConfigRepo, rev = 'HEAD') {
  const repo = await openRepo(r.dir);
  return renderRevision(repo, r.git('rev-parse', rev), { outputRef: OUT });
}

const replicasOf = (text: string) => (parse(text) as { spec: { replicas: number } }).spec.replicas;

test.after(() => {
  for (const r of repos) r.cleanup();
});

test('the Karmada nginx sample splits 2 replicas 1:1 over member1 and member2, nothing on member3', async () => {
  const r = nginxRepo();
  const report = await render(r);
  assert.ok(report.outputCommit);
  const files = r.ls('flotilla/rendered');
  assert.ok(files.includes(NGINX_M1) && files.includes(NGINX_M2));
  assert.not.ok(files.includes(NGINX_M3));
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 1);
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M2)), 1);
  const m1 = parse(r.show('flotilla/rendered', NGINX_M1));
  assert.is(m1.metadata.labels['karmada.io/managed'], 'true');
  assert.is(m1.metadata.annotations['flotilla.io/source-commit'], r.git('rev-parse', 'HEAD'));
  assert.is(m1.metadata.annotations['propagationpolicy.karmada.io/name'], 'nginx-propagation');
  const binding = parse(r.show('flotilla/rendered', 'bindings/default/nginx-deployment.yaml'));
  assert.equal(binding.spec.clusters, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ]);
  assert.is(binding.status.conditions[0].status, 'True');
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(message, `Source-Commit: ${r.git('rev-parse', 'HEAD')}`);
  assert.match(message, 'member1: 1 added');
  assert.is(r.git('fsck', '--strict'), '');
});

test('a policy pinning nginx to member1 gives member1 all 2 replicas (nil replicaScheduling is Duplicated)', async () => {
  const r = nginxRepo();
  r.commit(
    {
      'policies/nginx.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx-propagation
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
  placement:
    clusterAffinity:
      clusterNames:
        - member1
`,
    },
    'pin nginx to member1',
  );
  await render(r);
  assert.equal(
    r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/')),
    [NGINX_M1],
  );
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 2);
});

test('every file in karmada-samples renders: the CRD goes to member1 via the ClusterPropagationPolicy, overrides apply', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = { ...MEMBERS };
  for (const f of [
    'nginx/deployment.yaml',
    'nginx/propagationpolicy.yaml',
    'nginx/overridepolicy.yaml',
    'guestbook/guestbook.yaml',
    'guestbook/guestbooks-clusterpropagationpolicy.yaml',
    'guestbook/guestbooks-crd.yaml',
    'guestbook/guestbooks-overridepolicy.yaml',
    'guestbook/guestbooks-propagationpolicy.yaml',
  ])
    files[`samples/${f}`] = sample(f);
  r.commit(files, 'all samples');
  const report = await render(r);
  assert.equal(
    report.problems.filter((p) => p.severity === 'error'),
    [],
  );
  const out = r.ls('flotilla/rendered');
  assert.ok(
    out.includes(
      'clusters/member1/_cluster/customresourcedefinition.apiextensions.k8s.io_guestbooks.webapp.my.domain.yaml',
    ),
  );
  assert.ok(out.includes('bindings/_cluster/guestbooks.webapp.my.domain-customresourcedefinition.yaml'));
  const guestbook = parse(
    r.show('flotilla/rendered', 'clusters/member1/default/guestbook.webapp.my.domain_guestbook-sample.yaml'),
  );
  assert.is(guestbook.spec.size, 4);
  // The plaintext `add` of /metadata/annotations replaced the map; Karmada's own annotations come after.
  assert.is(guestbook.metadata.annotations.OverridePolicy, 'test');
  const m2 = parse(r.show('flotilla/rendered', NGINX_M2));
  assert.is(m2.metadata.labels.env, 'skoala-dev');
  assert.is(m2.metadata.labels['env-stat'], 'skoala-stage');
  const m1 = parse(r.show('flotilla/rendered', NGINX_M1));
  assert.is(m1.metadata.annotations.env, 'skoala-stage');
  assert.is(m1.metadata.labels.env, undefined);
});

test('rendering an already-rendered commit makes no commit, and identical input gives a byte-identical output commit', async () => {
  const a = nginxRepo();
  const first = await render(a);
  const again = await render(a);
  assert.is(again.outputCommit, null);
  assert.is(a.git('rev-parse', 'flotilla/rendered'), first.outputCommit);
  const b = nginxRepo();
  const other = await render(b);
  assert.is(a.git('rev-parse', 'HEAD'), b.git('rev-parse', 'HEAD'), 'the two sources are identical commits');
  assert.is(other.outputCommit, first.outputCommit);
});

test('an incremental commit changes only what the source change affects', async () => {
  const r = nginxRepo();
  r.commit(
    {
      'templates/web.yaml': sample('nginx/deployment.yaml').replaceAll('nginx', 'web'),
      'policies/web.yaml': sample('nginx/propagationpolicy.yaml').replaceAll('nginx', 'web'),
    },
    'add web',
  );
  await render(r);
  const before = r.git('rev-parse', 'flotilla/rendered');
  r.commit(
    { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') },
    'nginx to 4',
  );
  const report = await render(r);
  assert.is(report.full, false);
  const changed = r.git('diff-tree', '-r', '--name-only', before, 'flotilla/rendered').split('\n').sort();
  // The index does not change either: nginx still lives in the same file and goes to the same clusters.
  assert.equal(changed, ['bindings/default/nginx-deployment.yaml', NGINX_M1, NGINX_M2].sort());
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 2);
  // web's files still name the commit that produced them, not this one.
  const web = parse(r.show('flotilla/rendered', 'clusters/member1/default/deployment.apps_web.yaml'));
  assert.is.not(web.metadata.annotations['flotilla.io/source-commit'], r.git('rev-parse', 'HEAD'));
});

test('sync renders each new source commit once, and its result equals a cold render of the head', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  r.commit(
    { 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  a: "1"\n' },
    'config map',
  );
  r.commit(
    {
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml').replace('weight: 1\n', 'weight: 3\n'),
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4'),
    },
    'weights 3:1, 4 replicas',
  );
  r.commit({ 'clusters/member3.yaml': null }, 'remove member3');
  const result = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  assert.is(result.reports.length, 3);
  assert.is(r.git('rev-list', '--count', 'flotilla/rendered'), '4');
  const again = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  assert.is(again.reports.length, 0);
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 3, 'weights 3:1 over 4 replicas');
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M2)), 1);

  const cold = makeConfigRepo();
  repos.push(cold);
  cold.git('fetch', '-q', r.dir, 'main:source');
  await renderRevision(await openRepo(cold.dir), cold.git('rev-parse', 'source'), { outputRef: OUT });
  const unstamp = (s: string) => s.replace(/flotilla\.io\/source-commit: \w+/, '');
  const incremental = r.ls('flotilla/rendered');
  assert.equal(incremental, cold.ls('flotilla/rendered'));
  for (const f of incremental)
    assert.is(unstamp(r.show('flotilla/rendered', f)), unstamp(cold.show('flotilla/rendered', f)), f);
});

test('a broken file keeps the last good output of what it breaks, renders the rest, and records the errors', async () => {
  const r = nginxRepo();
  await render(r);
  const good = r.show('flotilla/rendered', NGINX_M1);
  r.commit(
    {
      'policies/nginx.yaml':
        'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: nginx-propagation\nspec:\n  resourceSelectors: [\n',
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 6'),
      'templates/other.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n',
    },
    'break the policy',
  );
  const report = await render(r);
  const errors = report.problems.filter((p) => p.severity === 'error');
  assert.ok(
    errors.some((p) => p.file === 'policies/nginx.yaml' && p.code === 'YAML_SYNTAX' && p.line >= 6),
    JSON.stringify(errors),
  );
  // The policy keeps its last good definition: nginx is re-scheduled with it (6 → 3+3), never deleted.
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 3);
  assert.ok(good.length > 0);
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member3/_cluster/namespace_team-a.yaml'));
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), 'policies/nginx.yaml:');
});

test('a policy that fails validation (no namespace written, as in the sample) keeps its last good definition', async () => {
  const r = nginxRepo();
  await render(r);
  r.commit(
    { 'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml').replace('clusterAffinity:', 'clusterAfinity:') },
    'typo in the policy',
  );
  const report = await render(r);
  assert.ok(report.problems.some((p) => p.file === 'policies/nginx.yaml' && p.code === 'UNKNOWN_FIELD'));
  assert.ok(r.ls('flotilla/rendered').includes(NGINX_M1), 'nginx was not unscheduled');
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M2)), 1);
});

test('a template that breaks keeps its previous output; a template with an escaping name is refused', async () => {
  const r = nginxRepo();
  await render(r);
  const good = r.show('flotilla/rendered', NGINX_M1);
  r.commit(
    {
      'templates/nginx.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\nspec:\n  replicas: [oops\n',
      'templates/evil.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ../../../etc/passwd\n',
    },
    'break nginx',
  );
  const report = await render(r);
  assert.is(r.show('flotilla/rendered', NGINX_M1), good);
  assert.ok(report.problems.some((p) => p.file === 'templates/evil.yaml' && p.code === 'INVALID_NAME' && p.line === 4));
  assert.not.ok(r.ls('flotilla/rendered').some((f) => f.includes('passwd')));
});

test('deleting a template removes it from every cluster and its binding', async () => {
  const r = nginxRepo();
  await render(r);
  r.commit({ 'templates/nginx.yaml': null }, 'remove nginx');
  await render(r);
  assert.equal(
    r.ls('flotilla/rendered').filter((f) => !f.startsWith('.flotilla/')),
    [],
  );
});

test('propagateDeps: a referenced ConfigMap follows its Deployment, also when a later commit moves the Deployment', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const policy = (clusters: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: app}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: app}]
  placement:
    clusterAffinity: {clusterNames: [${clusters}]}
`;
  r.commit({
    ...MEMBERS,
    'templates/app.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: nginx, envFrom: [{configMapRef: {name: app-config}}]}]
`,
    'templates/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-config}\ndata: {a: "1"}\n',
    'policies/app.yaml': policy('member2, member3'),
  });
  await render(r);
  const configs = () => r.ls('flotilla/rendered').filter((f) => f.endsWith('configmap_app-config.yaml'));
  assert.equal(configs(), [
    'clusters/member2/default/configmap_app-config.yaml',
    'clusters/member3/default/configmap_app-config.yaml',
  ]);
  r.commit({ 'policies/app.yaml': policy('member1') }, 'move app to member1');
  const report = await render(r);
  assert.is(report.full, false);
  assert.equal(configs(), ['clusters/member1/default/configmap_app-config.yaml']);
  const binding = parse(r.show('flotilla/rendered', 'bindings/default/app-config-configmap.yaml'));
  assert.equal(binding.spec.requiredBy, [
    { namespace: 'default', name: 'app-deployment', clusters: [{ name: 'member1', replicas: 1 }] },
  ]);
  assert.is(binding.spec.clusters, undefined, 'an attached binding has no result of its own');
});

test.run();
