// get and describe show a Secret's name, type and keys, never a value: not the template's, not the member copy's
// as rendered, not whatever an older status branch holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import { blameCommand } from '../../src/commands/blameCommand.ts';
import { describeCommand } from '../../src/commands/describeCommand.ts';
import { getCommand } from '../../src/commands/getCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { commitStatusEdits } from '../../src/branches/status/commitStatusEdits.ts';
import { withoutSecretStatus } from '../../src/statuses/withoutSecretStatus.ts';
import { redactSecret } from '../../src/views/redactSecret.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';
import { RENDERED, reportApplied, runReadCommand } from './helpers/fleetRepo.ts';

const DB = { apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'db' };
// base64 of "hunter2" and of "admin"; the stringData value is plain text.
const SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: db
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"aHVudGVyMg=="}}'
type: Opaque
data:
  password: aHVudGVyMg==
  user: YWRtaW4=
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
const VALUES = /aHVudGVyMg==|YWRtaW4=|s3cr3t-token|hunter2/;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

let repo: TempRepo;
test.before(async () => {
  ({ repo } = makeNginxRepo());
  writeWorkTree(repo, { 'templates/secret.yaml': SECRET, 'policies/db.yaml': POLICY });
  commitAll(repo, 'Add the db Secret');
  const git = await openRepo(repo.path);
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const live = { ...parse(SECRET), metadata: { name: 'db', namespace: 'default' } };
  await reportApplied(git, {
    member1: [
      { ref: DB, path: 'clusters/member1/default/secret_db.yaml', action: 'created', message: 'created', live },
    ],
  });
});
test.after(() => repo.cleanup());

const run = (command: typeof getCommand, ...args: string[]) => runReadCommand(command, repo.path, NOW, args);

test('get secret: the table counts keys; -o yaml and -o json name every key and print sizes instead of values', async () => {
  assert.match((await run(getCommand, 'secrets')).out, /^NAME +TYPE +DATA +AGE\ndb +Opaque +3 +/);
  for (const output of ['yaml', 'json']) {
    const r = await run(getCommand, 'secret', 'db', '-o', output);
    assert.is(r.code, 0, r.err);
    assert.not.match(r.out, VALUES);
    const secret = output === 'yaml' ? parse(r.out) : JSON.parse(r.out);
    assert.equal(secret.data, { password: '<redacted: 7 bytes>', user: '<redacted: 5 bytes>' });
    assert.equal(secret.stringData, { token: '<redacted: 12 bytes>' });
    assert.is(secret.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], '<redacted>');
  }
});

test('get secret --cluster and get works -o yaml: the member copy as rendered shows keys only', async () => {
  const member = await run(getCommand, 'secret', 'db', '--cluster', 'member1', '-o', 'yaml');
  assert.is(member.code, 0, member.err);
  assert.not.match(member.out, VALUES);
  assert.match(member.out, /password: '<redacted: 7 bytes>'/);
  const works = await run(getCommand, 'works', '-o', 'yaml');
  assert.is(works.code, 0, works.err);
  assert.not.match(works.out, VALUES);
  assert.match(works.out, /user: '<redacted: 5 bytes>'/);
});

test('describe secret: type and the size of each key, as kubectl describe secret prints them', async () => {
  const r = await run(describeCommand, 'secret', 'db');
  assert.is(r.code, 0, r.err);
  assert.not.match(r.out, VALUES);
  assert.match(r.out, /Type: +Opaque\nData\n====\npassword: +7 bytes\ntoken: +12 bytes\nuser: +5 bytes\n/);
});

test('a status file holding Secret values (written before Flotilla refused to reflect Secrets) is shown without them', () => {
  const leaked = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db' },
    status: { data: { password: 'aHVudGVyMg==' } },
    conditions: [],
    aggregatedStatus: [
      {
        clusterName: 'member1',
        applied: true,
        health: 'Healthy' as const,
        status: { data: { password: 'aHVudGVyMg==' } },
      },
    ],
  };
  assert.not.match(JSON.stringify(withoutSecretStatus(leaked)), VALUES);
  const deployment = { ...leaked, apiVersion: 'apps/v1', kind: 'Deployment' };
  assert.is(withoutSecretStatus(deployment), deployment);
  const configMap = { apiVersion: 'v1', kind: 'ConfigMap', data: { color: 'blue' } };
  assert.is(redactSecret(configMap), configMap);
});

test('Secret values an older Flotilla wrote to the status branch are shown by neither get, describe nor blame', async () => {
  const path = templateStatusPath(DB);
  const leaked = stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'default' },
    status: { data: { password: 'aHVudGVyMg==' } },
    conditions: [
      {
        type: 'FullyApplied',
        status: 'True',
        reason: 'FullyAppliedSuccess',
        message: 'All works have been successfully applied',
      },
    ],
    aggregatedStatus: [
      { clusterName: 'member1', applied: true, health: 'Healthy', status: { data: { password: 'aHVudGVyMg==' } } },
    ],
  });
  const git = await openRepo(repo.path);
  await commitStatusEdits(git, 'refs/heads/flotilla/status', [path], () => ({
    edits: new Map([[path, leaked]]),
    message: 'status written by an older Flotilla',
    time: NOW,
  }));
  for (const [command, args] of [
    [getCommand, ['secret', 'db', '-o', 'yaml']],
    [getCommand, ['secret', 'db', '--cluster', 'member1', '-o', 'json']],
    [getCommand, ['works', '-o', 'yaml']],
    [getCommand, ['rb', '-o', 'yaml']],
    [describeCommand, ['secret', 'db']],
    [blameCommand, ['--cluster', 'member1', 'secret/db', '-o', 'yaml']],
  ] as const) {
    const r = await run(command, ...args);
    assert.is(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.not.match(r.out, VALUES, args.join(' '));
  }
});

test.run();
