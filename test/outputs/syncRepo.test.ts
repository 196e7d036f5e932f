import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];

async function failureOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  return 'did not fail';
}

test.after(() => {
  for (const r of repos) r.cleanup();
});

const everything = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: everything
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
    - apiVersion: v1
      kind: "../../../x"
    - apiVersion: v1
      kind: "a..b"
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const cm = (name: string, kind = 'ConfigMap') =>
  `apiVersion: v1\nkind: "${kind}"\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  k: v\n`;

test('a kind with .. or / is a located error, the rest of that commit renders, and later commits render after the revert', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'policies/all.yaml': everything, 'templates/a.yaml': cm('a') },
    'a ConfigMap',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  r.commit(
    { 'templates/evil.yaml': `${cm('b', '../../../x')}---\n${cm('c', 'a..b')}`, 'templates/b.yaml': cm('b2') },
    'bad kinds',
  );
  r.commit({ 'templates/evil.yaml': null }, 'revert');
  r.commit({ 'templates/c.yaml': cm('c3') }, 'one more');
  const result = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(result.reports.length, 3);
  assert.ok(
    result.reports.every((report) => report.outputCommit),
    'every commit rendered',
  );
  const bad = result.reports[0]!.problems.filter((p) => p.file === 'templates/evil.yaml').map(
    (p) => `${p.line}:${p.code}`,
  );
  assert.equal(bad, ['2:INVALID_VALUE', '10:INVALID_VALUE']);
  const files = r.ls('flotilla/rendered');
  assert.ok(files.includes('clusters/member1/default/configmap_b2.yaml'), 'the rest of the bad commit rendered');
  assert.ok(files.includes('clusters/member1/default/configmap_c3.yaml'), 'a later commit rendered');
  assert.not.ok(
    files.some((f) => f.includes('x_b') || f.includes('a..b') || !/^(clusters|bindings|\.flotilla)\//.test(f)),
    files.join('\n'),
  );
});

test('a commit whose render fails is skipped when a later one exists; the newest commit failing fails the pass', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'policies/all.yaml': everything, 'templates/a.yaml': cm('a') },
    'a ConfigMap',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const broken = r.commit({ 'templates/b.yaml': cm('b') }, 'cannot render');
  r.commit({ 'templates/c.yaml': cm('c') }, 'after it');
  const render: typeof renderRevision = async (git, sha, target, again) => {
    if (sha === broken) throw new Error('internal error: something no input should do');
    return renderRevision(git, sha, target, again);
  };
  const result = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT, render });
  assert.equal(
    result.reports.map((report) => report.outputCommit !== null),
    [false, true],
  );
  assert.is(result.reports[0]!.problems[0]!.code, 'RENDER_FAILED');
  assert.ok(
    r.ls('flotilla/rendered').includes('clusters/member1/default/configmap_b.yaml'),
    'the later commit carries the skipped one',
  );

  const head = r.commit({ 'templates/d.yaml': cm('d') }, 'head cannot render');
  const failing: typeof renderRevision = async () => {
    throw new Error(`internal error at ${head}`);
  };
  assert.match(
    await failureOf(syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT, render: failing })),
    'internal error',
  );
  // A transient error (one with a code) is not the commit's fault: it fails the pass instead of skipping.
  r.commit({ 'templates/e.yaml': cm('e') }, 'newest');
  const transient: typeof renderRevision = async () => {
    throw Object.assign(new Error('read timed out'), { code: 'ETIMEDOUT' });
  };
  assert.match(await failureOf(syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT, render: transient })), 'timed out');
  const healed = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(healed.reports.length, 2);
});

test.run();
