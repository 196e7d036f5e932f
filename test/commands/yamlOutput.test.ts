// `-o yaml` of explain, history, validate and verify prints documents as kubectl's `-o yaml` does: a value that
// appears twice is written twice (never as an anchor and an alias), and a long line is never folded.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
test.after(() => {
  for (const r of repos) r.cleanup();
});

const FILES = {
  ...MEMBERS,
  'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`,
  'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-propagated-to-the-first-member-with-a-rather-long-name-for-the-line}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
};

test('explain -o yaml writes the scheduled clusters out in full, without anchors, and keeps each value on one line', () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  const res = flotilla('explain', 'deploy/web', '--repo', r.dir, '-o', 'yaml');
  assert.is(res.status, 0, res.stderr);
  assert.not.match(res.stdout, /[&*]a\d/, res.stdout);
  const why = res.stdout.split('\n').find((l) => l.startsWith('policyReason:'));
  assert.ok(why && /by name/.test(why), res.stdout);
  const doc = parse(res.stdout);
  assert.equal(doc.clusters, [{ name: 'member1', replicas: 2 }]);
  assert.equal(doc.schedule.clusters, doc.clusters);
  const json = JSON.parse(flotilla('explain', 'deploy/web', '--repo', r.dir, '-o', 'json').stdout);
  assert.equal(doc, json);
});

test.run();
