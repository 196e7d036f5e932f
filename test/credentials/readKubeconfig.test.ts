import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringify } from 'yaml';
import { readKubeconfig } from '../../src/credentials/readKubeconfig.ts';
import { ClusterConnections } from '../../src/passes/connectClusters.ts';
import { collectClusterStatus } from '../../src/statuses/collectClusterStatus.ts';
import type { ClusterRegistration } from '../../src/passes/readClusterRegistrations.ts';

let top: string;
let root: string;

test.before.each(() => {
  top = mkdtempSync(path.join(tmpdir(), 'flotilla-kubeconfig-'));
  root = path.join(top, 'credentials');
  mkdirSync(root);
});
test.after.each(() => rmSync(top, { recursive: true, force: true }));

function kubeconfig(user: Record<string, unknown>, cluster: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'm1',
    clusters: [{ name: 'm1', cluster: { server: 'https://127.0.0.1:1', ...cluster } }],
    users: [{ name: 'm1', user }],
    contexts: [{ name: 'm1', context: { cluster: 'm1', user: 'm1' } }],
  });
}

/** A kubeconfig whose user runs a shell that leaves `marker` behind and prints a token. */
function execKubeconfig(marker: string): string {
  const credential = JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1beta1',
    kind: 'ExecCredential',
    status: { token: 'from-exec' },
  });
  return kubeconfig({
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      command: '/bin/sh',
      args: ['-c', `touch ${marker}; echo '${credential}'`],
      interactiveMode: 'Never',
    },
  });
}

const read = (file: string, allowExec = false, context = 'm1') => readKubeconfig({ root, file, context, allowExec });

test('a token kubeconfig inside the credentials folder loads with the one context asked for', () => {
  writeFileSync(path.join(root, 'members.config'), kubeconfig({ token: 'abc' }));
  const r = read('members.config');
  assert.ok('kubeconfig' in r, JSON.stringify(r));
  assert.is(r.kubeconfig.getCurrentContext(), 'm1');
  assert.is(r.kubeconfig.getCurrentUser()?.token, 'abc');
  assert.is(r.path, path.join(root, 'members.config'));
});

test('kubeconfigRef paths that leave the credentials folder are refused with the reason and the fix, not the content', () => {
  writeFileSync(path.join(top, 'other.config'), kubeconfig({ token: 'other-teams-token' }));
  writeFileSync(path.join(top, 'env'), 'TOKEN=s3cret-value\nPATH=/bin\n');
  symlinkSync(path.join(top, 'other.config'), path.join(root, 'link.config'));
  const cases = {
    '../other.config': 'leads outside',
    [path.join(top, 'other.config')]: 'is absolute',
    'link.config': 'symlink',
    '../env': 'leads outside',
  };
  for (const [file, words] of Object.entries(cases)) {
    const r = read(file);
    assert.ok('why' in r, file);
    assert.match(r.why, words, file);
    assert.match(r.why, file);
    assert.match(r.fix, `put the kubeconfig in ${root}`);
    assert.not.match(`${r.why} ${r.fix}`, 'other-teams-token');
    assert.not.match(`${r.why} ${r.fix}`, 's3cret');
  }
});

test('a file that is not a kubeconfig is named by line and column, its lines never quoted', () => {
  writeFileSync(path.join(root, 'env'), 'TOKEN=s3cret-value\n  bad: [indent\n');
  writeFileSync(path.join(root, 'list.yaml'), 'secret: s3cret-value\n');
  const bad = read('env');
  assert.ok('why' in bad);
  assert.match(bad.why, /not valid YAML \(line \d+, column \d+\)/);
  assert.not.match(bad.why, 's3cret');
  const notKubeconfig = read('list.yaml');
  assert.ok('why' in notKubeconfig);
  assert.match(notKubeconfig.why, 'not a kubeconfig');
  assert.not.match(notKubeconfig.why, 's3cret');
});

test('exec plugins are refused unless allowed; auth-provider plugins always', () => {
  writeFileSync(path.join(root, 'exec.config'), execKubeconfig(path.join(top, 'marker')));
  writeFileSync(
    path.join(root, 'gcp.config'),
    kubeconfig({ 'auth-provider': { name: 'gcp', config: { 'cmd-path': '/bin/true' } } }),
  );
  const exec = read('exec.config');
  assert.ok('why' in exec);
  assert.match(exec.why, 'user.exec');
  assert.match(exec.fix, '--insecure-kubeconfig-exec');
  assert.ok('kubeconfig' in read('exec.config', true));
  for (const allow of [false, true]) {
    const gcp = read('gcp.config', allow);
    assert.ok('why' in gcp);
    assert.match(gcp.why, 'auth-provider');
  }
  assert.not.ok(existsSync(path.join(top, 'marker')), 'reading never runs the command');
});

test('files a kubeconfig names resolve against its own folder, are confined to the credentials folder, and are inlined', () => {
  mkdirSync(path.join(root, 'team'));
  writeFileSync(path.join(root, 'team', 'token'), 'tok-from-file\n');
  writeFileSync(path.join(root, 'team', 'ca.crt'), 'CA PEM');
  writeFileSync(
    path.join(root, 'team', 'k.config'),
    kubeconfig({ tokenFile: 'token' }, { 'certificate-authority': 'ca.crt' }),
  );
  const ok = read('team/k.config');
  assert.ok('kubeconfig' in ok, JSON.stringify(ok));
  assert.is(ok.kubeconfig.getCurrentUser()?.token, 'tok-from-file');
  assert.is(ok.kubeconfig.getCurrentCluster()?.caData, Buffer.from('CA PEM').toString('base64'));
  assert.is(ok.kubeconfig.getCurrentCluster()?.caFile, undefined, 'client-node is given no path to open');

  writeFileSync(path.join(top, 'host-token'), 'host-secret');
  for (const user of [
    { tokenFile: '../../host-token' },
    { 'token-file': path.join(top, 'host-token') },
    { 'client-key': '/etc/passwd', 'client-certificate': 'x' },
  ]) {
    writeFileSync(path.join(root, 'team', 'bad.config'), kubeconfig(user));
    const bad = read('team/bad.config');
    assert.ok('why' in bad, JSON.stringify(user));
    assert.match(bad.why, /leads outside|does not exist/);
    assert.not.match(bad.why, 'host-secret');
  }
});

test('a changed token file changes the fingerprint, so the connection is rebuilt', () => {
  writeFileSync(path.join(root, 'token'), 'one');
  writeFileSync(path.join(root, 'k.config'), kubeconfig({ tokenFile: 'token' }));
  const a = read('k.config');
  writeFileSync(path.join(root, 'token'), 'two');
  const b = read('k.config');
  assert.ok('fingerprint' in a && 'fingerprint' in b);
  assert.is.not(a.fingerprint, b.fingerprint);
});

test("the operator's own kubeconfig is read where it is, its files too, and may keep its exec plugin", () => {
  writeFileSync(path.join(top, 'token'), 'operator-token');
  writeFileSync(path.join(top, 'op.config'), kubeconfig({ tokenFile: 'token' }));
  const ok = readKubeconfig({ root: undefined, file: path.join(top, 'op.config'), context: 'm1', allowExec: false });
  assert.ok('kubeconfig' in ok, JSON.stringify(ok));
  assert.is(ok.kubeconfig.getCurrentUser()?.token, 'operator-token');
  writeFileSync(path.join(top, 'exec.config'), execKubeconfig(path.join(top, 'marker')));
  assert.ok(
    'kubeconfig' in
      readKubeconfig({ root: undefined, file: path.join(top, 'exec.config'), context: 'm1', allowExec: true }),
  );
  const missing = readKubeconfig({
    root: undefined,
    file: path.join(top, 'nope.config'),
    context: 'm1',
    allowExec: true,
  });
  assert.ok('why' in missing);
  assert.is(missing.why, `kubeconfig ${path.join(top, 'nope.config')} does not exist`);
  const noContext = readKubeconfig({
    root: undefined,
    file: path.join(top, 'op.config'),
    context: 'other',
    allowExec: true,
  });
  assert.ok('why' in noContext);
  assert.equal(noContext.contexts, ['m1']);
});

const registration = (name: string, file: string): ClusterRegistration => ({
  name,
  syncMode: 'Push',
  kubeconfigRef: { path: file, context: 'm1' },
  source: `clusters/${name}.yaml:1`,
});

test('ClusterConnections: a refused kubeconfig runs nothing, the log names the Cluster, path and fix, and its cluster reports StatusCollectionFailed', async () => {
  const marker = path.join(top, 'work', 'ran');
  mkdirSync(path.join(top, 'work'));
  // A kubeconfig at a path the author can predict (their own clone) with an exec plugin.
  writeFileSync(path.join(top, 'work', 'evil.config'), execKubeconfig(marker));
  writeFileSync(path.join(root, 'exec.config'), execKubeconfig(marker));
  writeFileSync(path.join(root, 'members.config'), kubeconfig({ token: 'good' }));
  const log: Record<string, unknown>[] = [];
  const connections = new ClusterConnections({
    credentialsDir: root,
    fallbackKubeconfig: undefined,
    log: (e) => log.push(e),
  });
  try {
    const open = await connections.resolve([
      registration('good', 'members.config'),
      registration('dotdot', '../work/evil.config'),
      registration('absolute', path.join(top, 'work', 'evil.config')),
      registration('execinside', 'exec.config'),
    ]);
    assert.equal([...open.keys()].sort(), ['absolute', 'dotdot', 'execinside', 'good']);
    assert.equal(
      [...open].filter(([, t]) => t.server !== '').map(([name]) => name),
      ['good'],
      'only good is connected',
    );
    // The others take part in the pass as members no request reaches: NotReady after the threshold, as in Karmada.
    const status = await collectClusterStatus(open.get('dotdot')!);
    assert.equal(
      status.conditions!.map((c) => [c.type, c.status, c.reason]),
      [['Ready', 'False', 'StatusCollectionFailed']],
    );
    assert.match(
      status.conditions![0]!.message ?? '',
      /^failed to create a ClusterClient: kubeconfig \.\.\/work\/evil\.config leads outside/,
    );
    assert.not.ok(existsSync(marker), 'no exec plugin ran');
    const skipped = Object.fromEntries(log.filter((e) => e.skipped).map((e) => [e.cluster, String(e.skipped)]));
    assert.equal(Object.keys(skipped).sort(), ['absolute', 'dotdot', 'execinside']);
    assert.match(
      skipped.dotdot!,
      'clusters/dotdot.yaml:1: Cluster dotdot: kubeconfig ../work/evil.config leads outside',
    );
    assert.match(skipped.execinside!, 'fix:');
  } finally {
    await connections.close();
  }
  // The same kubeconfig inside the folder runs its plugin once the operator allows it: the check above is real.
  const allowed = new ClusterConnections({
    credentialsDir: root,
    fallbackKubeconfig: undefined,
    allowKubeconfigExec: true,
    log: () => undefined,
  });
  try {
    const open = await allowed.resolve([registration('execinside', 'exec.config')]);
    assert.equal([...open.keys()], ['execinside']);
    assert.ok(existsSync(marker), 'with --insecure-kubeconfig-exec the plugin runs');
  } finally {
    await allowed.close();
  }
});

test.run();
