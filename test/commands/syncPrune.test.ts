// `flotilla sync` says at push time what the applier will hold, and how to allow it.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n`;
const POLICY =
  'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: cms\n  namespace: default\nspec:\n  resourceSelectors:\n    - apiVersion: v1\n      kind: ConfigMap\n  placement:\n    clusterAffinity:\n      clusterNames: [member1]\n';

function start(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/cms.yaml': POLICY,
      'templates/a.yaml': cm('a'),
      'templates/b.yaml': cm('b'),
    },
    'two apps',
  );
  assert.is(flotilla('sync', '--repo', r.dir).status, 0);
  return r;
}

test.after(() => {
  for (const r of repos) r.cleanup();
});

test('sync of a commit deleting every template prints what is held and the trailer fix; the rendered branch tells the truth', () => {
  const r = start();
  r.commit({ 'templates/a.yaml': null, 'templates/b.yaml': null }, 'delete everything');
  const res = flotilla('sync', '--repo', r.dir);
  assert.is(res.status, 0, res.stderr);
  assert.match(res.stdout, 'Prune safety: HELD');
  assert.match(res.stdout, /member1: would delete all 2 objects on member1 \(EVERYTHING\)/);
  assert.match(res.stdout, /- ConfigMap default\/a|- configmap.*a/i);
  assert.match(
    res.stdout,
    /fix: .*git commit --allow-empty -m "allow prune" --trailer "Flotilla-Allow-Prune: retiring app X"/,
  );
  assert.equal(
    r.ls('flotilla/rendered').filter((p) => p.startsWith('clusters/')),
    [],
    'the deletion itself is rendered',
  );
});

test('with the trailer on the deleting commit, sync says the deletions are allowed', () => {
  const r = start();
  r.commit(
    { 'templates/a.yaml': null, 'templates/b.yaml': null },
    'retire both\n\nFlotilla-Allow-Prune: both apps retired',
  );
  const res = flotilla('sync', '--repo', r.dir);
  assert.is(res.status, 0, res.stderr);
  assert.not.match(res.stdout, 'HELD');
  assert.match(res.stdout, 'Prune safety: allowed by Flotilla-Allow-Prune: both apps retired');
});

test('an ordinary deletion prints no prune-safety block', () => {
  const r = start();
  r.commit(
    {
      'templates/a.yaml': cm('a'),
      'templates/b.yaml': cm('b'),
      'templates/c.yaml': cm('c'),
      'templates/d.yaml': cm('d'),
    },
    'more',
  );
  assert.is(flotilla('sync', '--repo', r.dir).status, 0);
  r.commit({ 'templates/d.yaml': null }, 'drop d');
  const res = flotilla('sync', '--repo', r.dir);
  assert.is(res.status, 0, res.stderr);
  assert.not.match(res.stdout, 'Prune safety');
});

test.run();
