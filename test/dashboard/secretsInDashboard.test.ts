// The dashboard shows a Secret's keys and sizes, never a value: not in the fleet matrix, not in the object view's
// manifest or diff, not in a rendered commit's per-cluster diff, not in a changed value's diff either.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readChanges, readClusterDiff } from '../../src/dashboard/readChanges.ts';
import { readFleetClusters, readFleetView } from '../../src/dashboard/readFleetView.ts';
import { readObjectTrace } from '../../src/dashboard/readObjectTrace.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readFleet } from '../../src/views/readFleet.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED, reportApplied } from '../views/helpers/fleetRepo.ts';

const DB = { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'db' };
const secret = (password: string) => `apiVersion: v1
kind: Secret
metadata:
  name: db
type: Opaque
data:
  password: ${Buffer.from(password).toString('base64')}
stringData:
  token: s3cr3t-token
`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: db}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret, name: db}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
const VALUES = /aHVudGVyMg==|hunter2|s3cr3t-token|Y29ycmVjdC1ob3JzZQ==|correct-horse/;

let repo: TempRepo;
test.before(async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, { 'templates/secret.yaml': secret('hunter2'), 'policies/db.yaml': POLICY });
  commitAll(repo, 'Add the db Secret');
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const live = { ...parse(secret('hunter2')), metadata: { name: 'db', namespace: 'default' } };
  await reportApplied(git, {
    member1: [
      { ref: DB, path: 'clusters/member1/default/secret_db.yaml', action: 'created', message: 'created', live },
    ],
  });
  writeWorkTree(repo, { 'templates/secret.yaml': secret('correct-horse') });
  commitAll(repo, 'Rotate the db password');
  await syncRepo(await openRepo(repo.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
});
test.after(() => repo?.cleanup());

test('fleet, object trace and commit diffs name the keys with sizes and never a value', async () => {
  const fleet = await readFleet(await openRepo(repo.path), {
    rev: 'refs/heads/main',
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  const view = await readFleetView(fleet, await readFleetClusters(fleet), { kind: 'Secret' }, []);
  assert.is(view.workloads.total, 1);
  const trace = await readObjectTrace(fleet, 'v1/Secret/default/db', {
    renderedRef: RENDERED,
    statusRef: 'refs/heads/flotilla/status',
  });
  assert.match(trace!.clusters[0]!.manifest!, 'password: "<redacted: 13 bytes>"');
  const changes = await readChanges(fleet, 5);
  const diff = await readClusterDiff(fleet.repo, changes.commits[0]!.renderedCommit, 'member1');
  assert.match(diff, 'secret_db.yaml');
  for (const [what, text] of Object.entries({
    view: JSON.stringify(view),
    trace: JSON.stringify(trace),
    changes: JSON.stringify(changes),
    diff,
  }))
    assert.not.match(text, VALUES, what);
});

test("the per-cluster diff never shows a Secret's value, whatever commit and file name it is asked for", async () => {
  // /ui/api/diff takes any commit id: a source commit can hold a Secret under clusters/<name>/ in a file of any name.
  writeWorkTree(repo, { 'clusters/member1/creds.yaml': secret('hunter2') });
  commitAll(repo, 'A Secret kept beside the cluster');
  const commit = repo.git(['rev-parse', 'main']).trim();
  const diff = await readClusterDiff(await openRepo(repo.path), commit, 'member1');
  assert.match(diff, 'clusters/member1/creds.yaml');
  assert.match(diff, '<redacted: 7 bytes>');
  assert.not.match(diff, VALUES);
});

test.run();
