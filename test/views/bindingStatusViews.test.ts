// The status `get` shows on a ResourceBinding and a Work is what Karmada's controllers write there
// (pkg/util/helper/workstatus.go, pkg/controllers/execution, pkg/controllers/status/work_status_controller.go), read
// from the status branch.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { getCommand } from '../../src/commands/getCommand.ts';
import { asKarmadaStatusItem } from '../../src/branches/status/statusFiles.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import {
  clusterYaml,
  commitAll,
  DEPLOYMENT,
  makeNginxRepo,
  POLICY,
  writeWorkTree,
} from '../plans/helpers/nginxRepo.ts';
import { makeTempRepo } from '../commits/helpers/tempRepo.ts';
import { makeFleetRepo, NGINX, RENDERED, reportApplied, runReadCommand } from './helpers/fleetRepo.ts';

let repo: TempRepo;
const NOW = new Date((1_700_000_100 + 3600) * 1000);

test.before(async () => {
  const made = await makeFleetRepo();
  repo = made.repo;
  // member1 applied nginx (makeFleetRepo); member2's next apply fails.
  await reportApplied(
    made.git,
    {
      member2: [
        {
          ref: NGINX,
          path: 'clusters/member2/default/deployment.apps_nginx.yaml',
          action: 'failed',
          message: 'server-side apply failed: boom',
        },
      ],
    },
    new Date('2026-02-01T00:05:00Z'),
  );
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test("a binding's aggregatedStatus items are Karmada's AggregatedStatusItem: applied only when true, appliedMessage", async () => {
  const rb = parse((await get('rb', 'nginx-deployment', '-o', 'yaml')).out);
  const [applied, failed] = rb.status.aggregatedStatus;
  assert.equal(Object.keys(applied).sort(), ['applied', 'clusterName', 'health', 'status']);
  assert.is(applied.applied, true);
  assert.equal(failed, {
    clusterName: 'member2',
    appliedMessage: failed.appliedMessage,
    health: 'Unknown',
  });
  // The Work's Applied condition message, as assembleWorkStatus copies it.
  assert.is(failed.appliedMessage, 'Failed to apply all manifests (0/1): failed: server-side apply failed: boom');
  const json = JSON.parse((await get('rb', 'nginx-deployment', '-o', 'json')).out);
  assert.not.ok('applied' in json.status.aggregatedStatus[1], 'omitempty: a false applied is not written');
  assert.not.ok('message' in json.status.aggregatedStatus[1]);
});

// helper/workstatus.go assembleWorkStatus: appliedMessage is set only for a Work not applied.
test('an applied item carries no appliedMessage, not even the note of a prune the guard holds', () => {
  assert.equal(
    asKarmadaStatusItem({ clusterName: 'm1', applied: true, health: 'Unknown', message: 'held: prune budget' }),
    { clusterName: 'm1', applied: true, health: 'Unknown' },
  );
  assert.equal(
    asKarmadaStatusItem({ clusterName: 'm1', applied: false, health: 'Unknown', message: 'conflict: exists' }),
    { clusterName: 'm1', appliedMessage: 'Failed to apply all manifests (0/1): conflict: exists', health: 'Unknown' },
  );
});

test("a Work's status is what Karmada's execution and work status controllers write: conditions and a manifest status", async () => {
  const work = async (cluster: string) =>
    parse((await get('works', 'nginx', '--cluster', cluster, '-o', 'yaml')).out) as { status: Record<string, unknown> };
  const dispatching = {
    type: 'Dispatching',
    status: 'True',
    reason: 'Dispatching',
    message: 'Work is being dispatched to member clusters.',
  };
  assert.equal((await work('member1')).status, {
    conditions: [
      dispatching,
      {
        type: 'Applied',
        status: 'True',
        reason: 'AppliedSuccessful',
        message: 'Manifest has been successfully applied',
      },
    ],
    manifestStatuses: [
      {
        identifier: {
          ordinal: 0,
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          resource: '',
          namespace: 'default',
          name: 'nginx',
        },
        status: {
          availableReplicas: 1,
          generation: 1,
          observedGeneration: 1,
          readyReplicas: 1,
          replicas: 1,
          updatedReplicas: 1,
        },
        health: 'Healthy',
      },
    ],
  });
  // Not applied: the Applied condition says why, and no manifest status is reported.
  const failed = (await work('member2')).status;
  assert.equal(Object.keys(failed), ['conditions']);
  const [, applied] = failed.conditions as { type: string; status: string; reason: string; message: string }[];
  assert.is(applied!.status, 'False');
  assert.is(applied!.reason, 'AppliedFailed');
  assert.ok(applied!.message.startsWith('Failed to apply all manifests (0/1): '), applied!.message);
  assert.match(applied!.message, 'server-side apply failed: boom');
  // The APPLIED column is the Applied condition's status, as Karmada's Work printer column reads it.
  assert.is(
    (await get('works', 'nginx')).out,
    [
      'CLUSTER   NAMESPACE   KIND         NAME    APPLIED',
      'member1   default     Deployment   nginx   True',
      'member2   default     Deployment   nginx   False',
      '',
    ].join('\n'),
  );
});

// Karmada's printer columns read the conditions (.status.conditions[?(@.type=="FullyApplied")].status, and "Applied"
// on a Work); before the status controllers set them there is nothing to print, and kubectl prints an empty cell.
test('before anything is applied, FULLYAPPLIED and APPLIED are empty cells, as kubectl prints an unset condition', async () => {
  const { repo: fresh } = makeNginxRepo();
  try {
    await syncRepo(await openRepo(fresh.path), { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    const run = async (...args: string[]) => (await runReadCommand(getCommand, fresh.path, NOW, args)).out;
    assert.is(
      await run('rb'),
      'NAME               SCHEDULED   FULLYAPPLIED   AGE\nnginx-deployment   True                       60m\n',
    );
    assert.is(
      await run('works'),
      [
        'CLUSTER   NAMESPACE   KIND         NAME    APPLIED',
        'member1   default     Deployment   nginx   ',
        'member2   default     Deployment   nginx   ',
        '',
      ].join('\n'),
    );
  } finally {
    fresh.cleanup();
  }
});

// workstatus.go assembleWorkStatus: a Work the execution controller has not synced yet has no Applied condition, and
// the binding lists it with only its cluster and health Unknown (applied false and an empty appliedMessage are omitted).
test('a Work not applied yet has no Applied condition, and the binding lists it with its cluster and health alone', async () => {
  const { repo: fresh } = makeNginxRepo();
  try {
    const git = await openRepo(fresh.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    await reportApplied(git, {
      member1: [
        {
          ref: NGINX,
          path: 'clusters/member1/default/deployment.apps_nginx.yaml',
          action: 'created',
          message: 'created',
        },
      ],
    });
    const run = async (...args: string[]) => (await runReadCommand(getCommand, fresh.path, NOW, args)).out;
    const rb = JSON.parse(await run('rb', 'nginx-deployment', '-o', 'json'));
    assert.equal(rb.status.aggregatedStatus, [
      { clusterName: 'member1', applied: true, health: 'Unknown' },
      { clusterName: 'member2', health: 'Unknown' },
    ]);
    const work = parse(await run('works', 'nginx', '--cluster', 'member2', '-o', 'yaml'));
    assert.equal(
      work.status.conditions.map((c: { type: string }) => c.type),
      ['Dispatching'],
    );
    assert.is(
      await run('works', 'nginx'),
      [
        'CLUSTER   NAMESPACE   KIND         NAME    APPLIED',
        'member1   default     Deployment   nginx   True',
        'member2   default     Deployment   nginx   ',
        '',
      ].join('\n'),
    );
  } finally {
    fresh.cleanup();
  }
});

// execution_controller.go updateWorkDispatchingConditionIfNeeded: a Work whose dispatching is suspended says so.
test('a Work on a cluster where the policy suspends dispatching has Dispatching False, SuspendDispatching', async () => {
  const suspended = makeTempRepo();
  try {
    writeWorkTree(suspended, {
      'templates/deployment.yaml': DEPLOYMENT,
      'policies/propagationpolicy.yaml': POLICY,
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
    });
    commitAll(suspended, 'nginx on two members');
    const git = await openRepo(suspended.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    // Suspended later: member2 keeps the Work it has.
    writeWorkTree(suspended, {
      'policies/propagationpolicy.yaml': POLICY.replace(
        'spec:\n',
        'spec:\n  suspension:\n    dispatchingOnClusters:\n      clusterNames: [member2]\n',
      ),
    });
    commitAll(suspended, 'suspend dispatching to member2');
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    const conditions = async (cluster: string) =>
      parse(
        (await runReadCommand(getCommand, suspended.path, NOW, ['works', 'nginx', '--cluster', cluster, '-o', 'yaml']))
          .out,
      ).status.conditions;
    assert.equal(await conditions('member2'), [
      {
        type: 'Dispatching',
        status: 'False',
        reason: 'SuspendDispatching',
        message: 'Work dispatching is in a suspended state.',
      },
    ]);
    assert.equal(await conditions('member1'), [
      {
        type: 'Dispatching',
        status: 'True',
        reason: 'Dispatching',
        message: 'Work is being dispatched to member clusters.',
      },
    ]);
  } finally {
    suspended.cleanup();
  }
});

// binding/common.go ensureWork: every Work the binding controller writes says suspendDispatching and
// preserveResourcesOnDeletion (WithSuspendDispatching, WithPreserveResourcesOnDeletion, false included); namespace
// sync writes its Works without either option.
test('a Work says suspendDispatching per cluster and preserveResourcesOnDeletion; a synced Namespace says neither', async () => {
  const suspended = makeTempRepo();
  try {
    writeWorkTree(suspended, {
      'templates/deployment.yaml': DEPLOYMENT,
      'templates/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'policies/propagationpolicy.yaml': POLICY.replace('spec:\n', 'spec:\n  preserveResourcesOnDeletion: true\n'),
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
    });
    commitAll(suspended, 'nginx on two members');
    const git = await openRepo(suspended.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    writeWorkTree(suspended, {
      'policies/propagationpolicy.yaml': POLICY.replace(
        'spec:\n',
        'spec:\n  preserveResourcesOnDeletion: true\n  suspension:\n    dispatchingOnClusters:\n      clusterNames: [member2]\n',
      ),
    });
    commitAll(suspended, 'suspend dispatching to member2');
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    const spec = async (name: string, cluster: string) => {
      const { workload: _, ...rest } = parse(
        (await runReadCommand(getCommand, suspended.path, NOW, ['works', name, '--cluster', cluster, '-o', 'yaml']))
          .out,
      ).spec;
      return rest;
    };
    assert.equal(await spec('nginx', 'member1'), { suspendDispatching: false, preserveResourcesOnDeletion: true });
    assert.equal(await spec('nginx', 'member2'), { suspendDispatching: true, preserveResourcesOnDeletion: true });
    assert.equal(await spec('shop', 'member2'), {});
  } finally {
    suspended.cleanup();
  }
});

test("a binding's aggregatedStatus leaves out a copy whose deletion the prune guard holds, as Karmada skips a deleting Work", async () => {
  const git = await openRepo(repo.path);
  await reportApplied(
    git,
    { member3: [{ ref: NGINX, action: 'held', prune: true, message: 'deletion held by the prune budget' }] },
    new Date('2026-02-01T00:10:00Z'),
  );
  const rb = parse((await get('rb', 'nginx-deployment', '-o', 'yaml')).out);
  assert.equal(
    rb.status.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    ['member1', 'member2'],
  );
});

// ResourceBindingStatus tags aggregatedStatus omitempty: a binding with no Work but one being deleted has no item.
test("a binding with no item to show has no aggregatedStatus, as Karmada's omitempty writes it", async () => {
  const fresh = makeTempRepo();
  try {
    // Placed on no registered cluster: no Work anywhere.
    const nowhere = POLICY.replace('        - member1\n        - member2\n', '        - member9\n');
    assert.is.not(nowhere, POLICY);
    writeWorkTree(fresh, {
      'templates/deployment.yaml': DEPLOYMENT,
      'policies/propagationpolicy.yaml': nowhere,
      'clusters/member3.yaml': clusterYaml('member3'),
    });
    commitAll(fresh, 'nginx placed on no registered cluster');
    const git = await openRepo(fresh.path);
    await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
    await reportApplied(git, {
      member3: [{ ref: NGINX, action: 'held', prune: true, message: 'deletion held by the prune budget' }],
    });
    const rb = parse((await runReadCommand(getCommand, fresh.path, NOW, ['rb', 'nginx-deployment', '-o', 'yaml'])).out);
    assert.equal(Object.keys(rb.status), ['conditions']);
    assert.is(rb.status.conditions.find((c: { type: string }) => c.type === 'FullyApplied').status, 'False');
  } finally {
    fresh.cleanup();
  }
});

test.run();
