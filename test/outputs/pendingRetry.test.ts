// Pending bindings through the render: a resource that could not be scheduled is rendered again as soon as the status
// branch shows what lets it fit (no empty commit, no resync), nothing else is, and verify replays every output commit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import type { ClusterStatus } from '../../src/api/cluster.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { buildCommit } from '../../src/commits/buildCommit.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { flotillaIdentity, type GitRepo } from '../../src/commits/types.ts';
import { updateRef } from '../../src/commits/updateRef.ts';
import { writeTreeEdits } from '../../src/commits/writeTreeEdits.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { shardOf, shardPath } from '../../src/branches/rendered/outputIndex.ts';
import { clusterYaml, makeConfigRepoWith, nginxSample, sample, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const GUESTBOOK_M1 = 'clusters/member1/default/guestbook.webapp.my.domain_guestbook-sample.yaml';
const GUESTBOOK_BINDING = 'bindings/default/guestbook-sample-guestbook.yaml';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const guestbookRepo = () =>
  makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/guestbooks-crd.yaml': sample('guestbook/guestbooks-crd.yaml'),
      'templates/guestbook.yaml': sample('guestbook/guestbook.yaml'),
      'policies/guestbooks-clusterpropagationpolicy.yaml': sample('guestbook/guestbooks-clusterpropagationpolicy.yaml'),
      'policies/guestbooks-propagationpolicy.yaml': sample('guestbook/guestbooks-propagationpolicy.yaml'),
      'policies/guestbooks-overridepolicy.yaml': sample('guestbook/guestbooks-overridepolicy.yaml'),
    },
    'guestbook: CRD, custom resource and policies in one commit',
  );

/** A member's status as the status writer records it: the APIs it serves (a complete list), Ready, some capacity. */
function memberStatus(apis: [string, string][], version = 'v1.32.0'): ClusterStatus {
  return {
    kubernetesVersion: version,
    apiEnablements: apis.map(([groupVersion, kind]) => ({
      groupVersion,
      resources: [{ name: `${kind.toLowerCase()}s`, kind }],
    })),
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'CompleteAPIEnablements', status: 'True' },
    ],
    resourceSummary: { allocatable: { pods: '110', cpu: '4' } },
  };
}
const BUILTIN: [string, string][] = [
  ['apps/v1', 'Deployment'],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
];
const WITH_GUESTBOOK: [string, string][] = [...BUILTIN, ['webapp.my.domain/v1', 'Guestbook']];

let clock = 1_800_000_000;
/** A status branch commit with these clusters' files, as the applier's status writer would leave it. */
async function commitStatus(repo: GitRepo, clusters: Record<string, ClusterStatus>): Promise<string> {
  const edits = new Map(
    Object.entries(clusters).map(([name, status]) => [
      `clusters/${name}.yaml`,
      stringify({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { syncMode: 'Push' },
        status,
      }),
    ]),
  );
  const head = await readRef(repo, STATUS);
  const pack = new PackWriter(repo);
  const tree = await writeTreeEdits(repo, pack, head ? (await readCommitInfo(repo, head)).tree : null, edits);
  const who = flotillaIdentity({ timestamp: clock++, timezoneOffset: 0 });
  const commit = buildCommit(pack, {
    tree,
    parents: head ? [head] : [],
    message: 'status\n',
    author: who,
    committer: who,
  });
  await pack.flush();
  await updateRef(repo, STATUS, commit, head);
  return commit;
}

const sync = (repo: GitRepo) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, statusRef: STATUS });
const message = (r: ConfigRepo, rev = 'flotilla/rendered') => r.git('log', '-1', '--format=%B', rev);

async function verified(repo: GitRepo, rev?: string): Promise<void> {
  const report = await verifyOutput(repo, { outputRef: OUT, ...(rev ? { rev } : {}) });
  assert.equal([report.differs, report.missing, report.extra], [[], [], []], `verify ${rev ?? 'head'}`);
  assert.ok(report.ok);
}

test('a custom resource whose API no member serves yet waits; the status showing it renders that resource again, alone', async () => {
  const r = guestbookRepo();
  const repo = await openRepo(r.dir);
  const first = await commitStatus(repo, { member1: memberStatus(BUILTIN), member2: memberStatus(BUILTIN) });
  await sync(repo);
  assert.not.ok(r.ls('flotilla/rendered').includes(GUESTBOOK_M1), 'member1 does not serve Guestbook yet');
  assert.ok(
    r
      .ls('flotilla/rendered')
      .includes(
        'clusters/member1/_cluster/customresourcedefinition.apiextensions.k8s.io_guestbooks.webapp.my.domain.yaml',
      ),
  );
  const binding = parse(r.show('flotilla/rendered', GUESTBOOK_BINDING));
  assert.equal([binding.status.conditions[0].status, binding.status.conditions[0].reason], ['False', 'NoClusterFit']);
  assert.match(message(r), `Cluster-Status: ${first}`);
  assert.match(message(r), /^Pending-Bindings: 1$/m);
  assert.equal(JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json')).pending, [
    'webapp.my.domain/v1/Guestbook/default/guestbook-sample',
  ]);
  const pendingRender = r.git('rev-parse', 'flotilla/rendered');

  // A status change the Guestbook's schedule does not read (a version): nothing to render, no commit.
  await commitStatus(repo, { member2: memberStatus(BUILTIN, 'v1.32.1') });
  assert.is((await sync(repo)).reports.length, 0);
  assert.is(r.git('rev-parse', 'flotilla/rendered'), pendingRender);

  // member1 now serves the API (the CRD was applied): the same source commit is rendered again for the Guestbook.
  const serving = await commitStatus(repo, { member1: memberStatus(WITH_GUESTBOOK) });
  const retried = await sync(repo);
  assert.is(retried.reports.length, 1);
  assert.equal(retried.reports[0]!.retried, [
    'Guestbook default/guestbook-sample: member1 now serves webapp.my.domain/v1 Guestbook',
  ]);
  assert.equal(Object.keys(retried.reports[0]!.changes), ['member1'], 'only the Guestbook moved');
  assert.is(retried.reports[0]!.filesWritten, 2, 'its manifest and its binding');
  assert.is(
    (parse(r.show('flotilla/rendered', GUESTBOOK_M1)) as { spec: { size: number } }).spec.size,
    4,
    "with the sample's override",
  );
  const text = message(r);
  assert.match(
    text,
    /^Retried Guestbook default\/guestbook-sample: member1 now serves webapp\.my\.domain\/v1 Guestbook$/m,
  );
  assert.match(text, `Cluster-Status: ${serving}`);
  assert.not.match(text, 'Pending-Bindings');
  assert.is(JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json')).pending, undefined);
  assert.is((await sync(repo)).reports.length, 0, 'placed: nothing pending, nothing more to render');

  await verified(repo);
  await verified(repo, pendingRender);
});

test('an empty commit pushed after the API appeared renders the waiting resource too: the output is what a cold render gives', async () => {
  const r = guestbookRepo();
  const repo = await openRepo(r.dir);
  await commitStatus(repo, { member1: memberStatus(BUILTIN), member2: memberStatus(BUILTIN) });
  await sync(repo);
  await commitStatus(repo, { member1: memberStatus(WITH_GUESTBOOK) });
  r.commit({}, 'empty');
  const rendered = await sync(repo);
  assert.is(rendered.reports.length, 1);
  assert.ok(rendered.reports[0]!.outputCommit);
  assert.ok(r.ls('flotilla/rendered').includes(GUESTBOOK_M1));
  await verified(repo);
});

test('verify still passes a render written before pending bindings were recorded (no Pending-Bindings trailer, no waiting)', async () => {
  const r = guestbookRepo();
  const repo = await openRepo(r.dir);
  await commitStatus(repo, { member1: memberStatus(BUILTIN), member2: memberStatus(BUILTIN) });
  await sync(repo);
  // The same render as an older Flotilla wrote it: its index without `waiting` and `pending`, its message without the trailer.
  const head = await readCommitInfo(repo, (await readRef(repo, OUT))!);
  const key = 'webapp.my.domain/v1/Guestbook/default/guestbook-sample';
  const shard = shardPath(shardOf(key));
  const strip = (text: string) => text.replace(/,"waiting":\{\}/g, '').replace(/,\n"pending":\[[^\]]*\]/, '');
  const edits = new Map([
    [shard, strip(r.show('flotilla/rendered', shard))],
    ['.flotilla/index.json', strip(r.show('flotilla/rendered', '.flotilla/index.json'))],
  ]);
  assert.not.match(edits.get(shard)!, 'waiting');
  const pack = new PackWriter(repo);
  const tree = await writeTreeEdits(repo, pack, head.tree, edits);
  const older = buildCommit(pack, {
    tree,
    parents: head.parents,
    message: head.message.replace(/^Pending-Bindings: .*\n/m, ''),
    author: head.author,
    committer: head.committer,
  });
  await pack.flush();
  await updateRef(repo, OUT, older, head.oid);
  await verified(repo);
});

test('a resource placed where its API is served waits for the other clusters it asks for, and joins them when they serve it', async () => {
  const both = (text: string) => text.replace('        - member1\n', '        - member1\n        - member2\n');
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/guestbook.yaml': sample('guestbook/guestbook.yaml'),
      'policies/guestbooks-propagationpolicy.yaml': both(sample('guestbook/guestbooks-propagationpolicy.yaml')),
    },
    'guestbook on member1 and member2',
  );
  const repo = await openRepo(r.dir);
  await commitStatus(repo, { member1: memberStatus(WITH_GUESTBOOK), member2: memberStatus(BUILTIN) });
  await sync(repo);
  const m2 = GUESTBOOK_M1.replace('member1', 'member2');
  assert.ok(r.ls('flotilla/rendered').includes(GUESTBOOK_M1));
  assert.not.ok(r.ls('flotilla/rendered').includes(m2));
  assert.match(message(r), /^Pending-Bindings: 1$/m);
  const retried = await (async () => {
    await commitStatus(repo, { member2: memberStatus(WITH_GUESTBOOK) });
    return sync(repo);
  })();
  assert.equal(retried.reports[0]!.retried, [
    'Guestbook default/guestbook-sample: member2 now serves webapp.my.domain/v1 Guestbook',
  ]);
  assert.ok(r.ls('flotilla/rendered').includes(m2));
  assert.not.match(message(r), 'Pending-Bindings');
  await verified(repo);
});

test('a workload with too little room waits; more free capacity on a member renders it again and places it', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'templates/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, resources: {requests: {cpu: "1"}}}]
`,
      'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
`,
    },
    'web: 4 replicas of 1 CPU',
  );
  const repo = await openRepo(r.dir);
  const withCpu = (cpu: string) => ({
    ...memberStatus(BUILTIN),
    resourceSummary: { allocatable: { pods: '110', cpu } },
  });
  await commitStatus(repo, { member1: withCpu('2') });
  await sync(repo);
  const binding = () => parse(r.show('flotilla/rendered', 'bindings/default/web-deployment.yaml'));
  assert.equal(
    [binding().status.conditions[0].status, binding().status.conditions[0].reason],
    ['False', 'Unschedulable'],
  );
  assert.match(message(r), /^Pending-Bindings: 1$/m);
  await commitStatus(repo, { member1: withCpu('8') });
  const retried = await sync(repo);
  assert.equal(retried.reports[0]!.retried, [
    'Deployment default/web: member1 has room for 8 replica(s), 2 before (4 to place)',
  ]);
  assert.equal(binding().spec.clusters, [{ name: 'member1', replicas: 4 }]);
  assert.not.match(message(r), 'Pending-Bindings');
  await verified(repo);
});

test('a fleet with nothing pending: status changes render nothing and record no pending bindings', async () => {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const repo = await openRepo(r.dir);
  await commitStatus(repo, {
    member1: memberStatus(BUILTIN),
    member2: memberStatus(BUILTIN),
    member3: memberStatus(BUILTIN),
  });
  await sync(repo);
  const head = r.git('rev-parse', 'flotilla/rendered');
  assert.not.match(message(r), 'Pending-Bindings');
  assert.not.match(r.show('flotilla/rendered', '.flotilla/index.json'), 'pending');
  await commitStatus(repo, { member1: memberStatus(WITH_GUESTBOOK), member2: memberStatus(BUILTIN, 'v1.33.0') });
  assert.is((await sync(repo)).reports.length, 0);
  assert.is(r.git('rev-parse', 'flotilla/rendered'), head);
});

test.run();
