import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test.after(() => {
  for (const r of repos) r.cleanup();
});

test('output piped into a reader that stops early (| head -1) ends the command quietly, without an EPIPE stack trace', () => {
  const r = makeConfigRepo();
  repos.push(r);
  // Far more than a pipe holds, so the writer meets the closed pipe whatever the timing.
  const data = Array.from({ length: 4000 }, (_, i) => `  key${i}: "${'x'.repeat(60)}"`).join('\n');
  r.commit(
    { 'templates/big.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${data}\n` },
    'big',
  );
  assert.is(flotilla('render', '--repo', r.dir).status, 0);
  const res = spawnSync(
    '/bin/sh',
    ['-c', `"${process.execPath}" "${BIN}" get configmap big -o yaml --repo "${r.dir}" | head -1`],
    {
      encoding: 'utf8',
    },
  );
  assert.is(res.stdout, 'apiVersion: v1\n');
  assert.is(res.stderr, '');
});

test('each command prints its own usage for --help', () => {
  const help = flotilla('sync', '--help');
  assert.is(help.status, 0);
  assert.match(
    help.stdout,
    /^Usage: flotilla sync \[--repo DIR\] \[--source-branch main\] \[--branch flotilla\/rendered\]/,
  );
  assert.not.match(help.stdout, '--out-dir');
  assert.match(flotilla('plan', '-h').stdout, 'flotilla plan --base REV --head REV');
  // The demo's own parser too, which refused --help as an unknown option.
  const up = flotilla('up', '--help');
  assert.is(up.status, 0, up.stderr);
  assert.match(up.stdout, /^Usage: flotilla up \[--dir DIR\] \[--exit\]/);
});

test('--help prints the commands and exits 0', () => {
  const res = flotilla('--help');
  assert.is(res.status, 0);
  for (const cmd of ['validate', 'render', 'sync', 'explain']) assert.match(res.stdout, cmd);
});

test('validate run from a subfolder of a work tree finds the repository and checks the branch checked out', () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({ ...MEMBERS, 'templates/nginx.yaml': sample('nginx/deployment.yaml') }, 'good on main');
  r.git('checkout', '-q', '-b', 'feature');
  r.commit({ 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas:', 'replica:') }, 'a typo');
  const inFolder = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: path.join(r.dir, 'templates') });
  const feature = inFolder('validate');
  assert.is(feature.status, 1, feature.stderr);
  assert.match(
    feature.stdout,
    /templates\/nginx\.yaml:\d+:3 {2}error {2}UNKNOWN_FIELD {2}unknown field spec\.replica;/,
  );
  assert.match(feature.stdout, /^[0-9a-f]{12} \(feature\): /m);
  const main = inFolder('validate', '--source-branch', 'main');
  assert.is(main.status, 0, main.stdout);
  assert.match(main.stdout, /^[0-9a-f]{12} \(main\): /m);
});

test('validate lists every problem in the commit with path:line:col, a code and a fix, and exits 1', () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      ...MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml').replace('clusterAffinity:', 'clusterAfinity:'),
      'clusters/bad.yaml':
        'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: leaky\nspec:\n  syncMode: Push\n  token: abc.def.ghi\n',
      'templates/dup.yaml': sample('nginx/deployment.yaml'),
    },
    'three problems',
  );
  const res = flotilla('validate', '--repo', r.dir);
  assert.is(res.status, 1, res.stderr);
  assert.match(
    res.stdout,
    /policies\/nginx\.yaml:\d+:\d+ {2}error {2}UNKNOWN_FIELD {2}.*clusterAfinity.*clusterAffinity/,
  );
  assert.match(res.stdout, /clusters\/bad\.yaml:7:\d+ {2}error {2}INLINE_CREDENTIALS/);
  assert.match(res.stdout, /templates\/nginx\.yaml:1:1 {2}error {2}DUPLICATE_OBJECT .*templates\/dup\.yaml:1/);
  assert.match(res.stdout, /\n {2}fix: /);
  assert.not.match(res.stdout, 'abc.def.ghi', 'the credential itself is never printed');
});

test('validate exits 0 on the Karmada nginx sample; explain shows the policy and each cluster', () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    ...MEMBERS,
    'templates/nginx.yaml': sample('nginx/deployment.yaml'),
    'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
  });
  const ok = flotilla('validate', '--repo', r.dir);
  assert.is(ok.status, 0, ok.stdout + ok.stderr);
  const ex = flotilla('explain', 'deployment/nginx', '--repo', r.dir);
  assert.is(ex.status, 0, ex.stderr);
  assert.match(ex.stdout, 'PropagationPolicy default/nginx-propagation');
  assert.match(ex.stdout, /member1\s+selected\s+1/);
  assert.match(ex.stdout, /member3\s+filtered\s+-\s+ClusterAffinity: .*clusterNames/);
  const json = JSON.parse(flotilla('explain', 'deployment/nginx', '--repo', r.dir, '-o', 'json').stdout);
  assert.equal(json.clusters, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ]);
  // A misspelt name is answered with the nearest template of that kind.
  const typo = flotilla('explain', 'deploy/ngnix', '--repo', r.dir);
  assert.is(typo.status, 1);
  assert.match(typo.stderr, '; did you mean deploy/nginx?');
});

test('validate warns where YAML 1.1 (kubectl) reads a plain scalar differently, exits 0 on warnings; a Helm template is one error', () => {
  const r = makeConfigRepo();
  repos.push(r);
  const secretPod =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: busybox\n    stdin: yes\n    workingDir: "on"\n  volumes:\n  - name: key\n    secret:\n      secretName: key\n      defaultMode: 0400\n';
  r.commit(
    {
      ...MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
      'templates/pod.yaml': secretPod,
    },
    'surprises',
  );
  const warned = flotilla('validate', '--repo', r.dir);
  assert.is(warned.status, 0, warned.stdout + warned.stderr);
  assert.match(
    warned.stdout,
    /templates\/pod\.yaml:10:12 {2}warning {2}YAML_AMBIGUOUS {2}`yes` reads as the boolean true/,
  );
  assert.match(
    warned.stdout,
    /templates\/pod\.yaml:16:20 {2}warning {2}YAML_AMBIGUOUS {2}`0400` reads as the octal number 256/,
  );
  assert.not.match(warned.stdout, /pod\.yaml:11:/, 'a quoted scalar is what its author chose');
  r.commit(
    {
      'charts/web/templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  {{- toYaml .Values.data | nindent 2 }}\n',
    },
    'a chart',
  );
  const helm = flotilla('validate', '--repo', r.dir);
  assert.is(helm.status, 1);
  assert.equal(
    helm.stdout.match(/charts\/web\/templates\/cm\.yaml:\d+:\d+ {2}error/g),
    ['charts/web/templates/cm.yaml:4:1  error'],
    helm.stdout,
  );
  assert.match(helm.stdout, /YAML_TEMPLATE {2}this is a Helm template/);
  assert.is(helm.stderr, '', 'nothing from the YAML library on stderr');
});

test('a manifest renders as kubectl reads it (0400 is 256, yes is true) and its strings are written so YAML 1.1 reads them back', () => {
  const r = makeConfigRepo();
  repos.push(r);
  const deployment = `${sample('nginx/deployment.yaml').replace('    app: nginx\nspec:', '    app: nginx\n    debug: "on"\nspec:')}        stdin: yes\n      volumes:\n      - name: key\n        secret:\n          secretName: key\n          defaultMode: 0400\n`;
  r.commit({
    ...MEMBERS,
    'templates/nginx.yaml': deployment,
    'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
  });
  const out = path.join(r.dir, '..', 'out-yaml');
  const res = flotilla('render', '--repo', r.dir, '--out-dir', out);
  assert.is(res.status, 0, res.stderr);
  const rendered = readFileSync(path.join(out, 'clusters/member1/default/deployment.apps_nginx.yaml'), 'utf8');
  assert.match(rendered, /\n {12}defaultMode: 256\n/, rendered);
  assert.match(rendered, /\n {10}stdin: true\n/, rendered);
  assert.match(rendered, /\n {4}debug: "on"\n/, rendered);
});

test('render --out-dir writes the same layout to a folder; a bad flag, a flag without its value or a stray argument exits 2 with a one-line message', () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({
    ...MEMBERS,
    'templates/nginx.yaml': sample('nginx/deployment.yaml'),
    'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
  });
  const out = path.join(r.dir, '..', 'out');
  const res = flotilla('render', '--repo', r.dir, '--out-dir', out);
  assert.is(res.status, 0, res.stderr);
  const ls = spawnSync('find', [out, '-type', 'f'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map((f) => path.relative(out, f))
    .sort();
  assert.equal(ls, [
    '.flotilla/clusters.json',
    '.flotilla/index.json',
    '.flotilla/index/ce.json',
    'bindings/default/nginx-deployment.yaml',
    'clusters/member1/default/deployment.apps_nginx.yaml',
    'clusters/member2/default/deployment.apps_nginx.yaml',
  ]);
  // A folder path through a file is refused before anything renders, naming the file and the fix.
  const throughFile = flotilla('render', '--repo', r.dir, '--out-dir', path.join(out, '.flotilla', 'index.json', 'x'));
  assert.is(throughFile.status, 2);
  assert.match(
    throughFile.stderr,
    `${path.join(out, '.flotilla', 'index.json')} is a file, not a folder; fix: pass a folder`,
  );
  // A flag another command takes is refused too: sync --out-dir would have committed to the output branch.
  for (const args of [
    ['render', '--bogus'],
    ['validate', '--repo'],
    ['up', 'extra'],
    ['sync', '--out-dir', out],
    ['render', '-o', 'json'],
    ['validate', '-o', 'wide'],
  ]) {
    const bad = flotilla(...args);
    assert.is(bad.status, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.is(bad.stderr.trim().split('\n').length, 1);
  }
});

test.run();
