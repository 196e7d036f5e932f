// The commands that only read the fleet, run in a clone of the config repository the reconciler renders to: the
// clone has the rendered and status branches as origin's, fetched, not as local branches, and reads those.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { runProgram, type ProgramResult } from '../helpers/runProgram.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
const root = mkdtempSync(path.join(tmpdir(), 'flotilla-clone-'));
const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: root,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};

test.after(() => {
  for (const r of repos) r.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;
const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

test("get, describe, explain and history read origin's rendered branch in a clone that has fetched it; a commit there says it waits for a push", async () => {
  const config = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'templates/web.yaml': deployment, 'policies/web.yaml': policy },
    'web',
  );
  await syncRepo(await openRepo(config.dir), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });
  const clone = path.join(root, 'work');
  execFileSync('git', ['clone', '-q', config.dir, clone], { env: ENV });
  const flotilla = (...args: string[]): Promise<ProgramResult> =>
    runProgram(process.execPath, [BIN, ...args], { cwd: clone, env: ENV, timeout: 60_000, maxBuffer: 16 << 20 });

  const get = await flotilla('get', 'deploy', 'web', '-o', 'wide');
  assert.is(get.code, 0, get.stderr);
  assert.match(get.stdout, /^web\s+.*member1/m);
  const described = await flotilla('describe', 'deploy', 'web');
  assert.is(described.code, 0, described.stderr);
  assert.match(described.stdout, 'member1');
  const explained = await flotilla('explain', 'deploy/web');
  assert.is(explained.code, 0, explained.stderr);
  assert.match(explained.stdout, 'member1');
  const history = await flotilla('history', 'deploy/web');
  assert.is(history.code, 0, history.stderr);
  assert.match(history.stdout, 'member1');

  // A command that commits says the commit waits in the clone until pushed.
  const cordoned = await flotilla('cordon', 'member2');
  assert.is(cordoned.code, 0, cordoned.stderr);
  assert.match(cordoned.stdout, 'committed in this clone only: git push origin main hands it to the reconciler');

  // With neither the branch nor origin's copy, the fix says to fetch.
  execFileSync('git', ['-C', clone, 'update-ref', '-d', 'refs/remotes/origin/flotilla/rendered'], { env: ENV });
  const none = await flotilla('get', 'deploy', 'web');
  assert.is.not(none.code, 0);
  assert.match(none.stderr, 'fix: in a clone, git fetch origin');
});

test.run();
