// A FederatedHPA decision that moves renders its workload (and what follows its placement) again, not the fleet: the
// output equals what a render of every template gives (verify replays it so).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { refKey } from '../../src/api/kinds.ts';
import {
  autoscalerPath,
  serializeAutoscalerDecision,
  type AutoscaledEntry,
  type AutoscalerDecisionFile,
} from '../../src/branches/status/autoscalerDecisions.ts';
import { AUTOSCALED_TRAILER, CLUSTER_STATUS_TRAILER } from '../../src/branches/rendered/trailers.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { autoscaledKey, autoscaleMovesSince, movedAutoscaledKeys } from '../../src/outputs/autoscaledTemplates.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import {
  configMap,
  deployment,
  makeConfigRepoWith,
  MEMBERS,
  weightedPolicy,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const WEB = refKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' });
const API = refKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'api' });

/** web mounts ConfigMap web-config, which follows it (propagateDeps); api is a second Divided workload. */
function fleetFiles(apiImage = 'nginx:1.27'): Record<string, string> {
  const web = deployment('web', 2)
    .replace(
      '    spec:\n      containers:\n',
      '    spec:\n      volumes: [{name: config, configMap: {name: web-config}}]\n      containers:\n',
    )
    .replace(
      '          image: nginx:1.27\n',
      '          image: nginx:1.27\n          volumeMounts: [{name: config, mountPath: /etc/web}]\n',
    );
  return {
    ...MEMBERS,
    'templates/web.yaml': web,
    'templates/web-config.yaml': configMap('web-config'),
    'templates/api.yaml': deployment('api', 2).replace('image: nginx:1.27', `image: ${apiImage}`),
    'policies/web.yaml': weightedPolicy('web', ['member1', 'member2']).replace(
      'spec:\n',
      'spec:\n  propagateDeps: true\n',
    ),
    'policies/api.yaml': weightedPolicy('api', ['member1', 'member2']),
  };
}

function decision(name: string, target: string, replicas: number): [string, string] {
  const file: AutoscalerDecisionFile = {
    apiVersion: 'autoscaling.karmada.io/v1alpha1',
    kind: 'FederatedHPA',
    metadata: { namespace: 'default', name },
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
    desiredReplicas: replicas,
    currentReplicas: 2,
    gitReplicas: 2,
    reason: 'cpu resource utilization (percentage of request) above target',
    ableToScale: 'SucceededRescale',
    metrics: [],
  };
  return [autoscalerPath('default', name), serializeAutoscalerDecision(file)];
}

/** A status commit holding these decisions (web's and api's FederatedHPAs), as the status side writes them. */
async function decide(repo: GitRepo, web: number, api: number, at: number) {
  const edits = new Map([decision('web', 'web', web), decision('api', 'api', api)]);
  await writeStatus({ repo, now: () => new Date(at * 1000), reports: [], autoscalers: { edits, lines: [] } });
}

const clustersOf = (r: ConfigRepo, file: string) =>
  r
    .ls('flotilla/rendered')
    .filter((p) => p.endsWith(file))
    .map((p) => p.split('/')[1])
    .sort();

test('a moved decision renders its workload and what follows it alone, as a render of every template would', async () => {
  const r = makeConfigRepoWith(repos, fleetFiles(), 'web, its config and api, Divided over member1 and member2');
  const repo = await openRepo(r.dir);
  const sync = () => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  // One replica for web: Divided 1:1 puts it on one cluster, and its ConfigMap goes there only.
  await decide(repo, 1, 3, 1_000);
  await sync();
  const oneCluster = clustersOf(r, 'deployment.apps_web.yaml');
  assert.is(oneCluster.length, 1);
  assert.equal(clustersOf(r, 'configmap_web-config.yaml'), oneCluster);
  const apiBefore = r.show('flotilla/rendered', 'clusters/member1/default/deployment.apps_api.yaml');

  // web's FederatedHPA moves to 4; api's keeps 3. The sync renders web again, with the ConfigMap that follows it.
  await decide(repo, 4, 3, 2_000);
  const again = (await sync()).reports;
  assert.is(again.length, 1);
  assert.is(again[0]!.full, false, 'not every template');
  assert.equal(clustersOf(r, 'deployment.apps_web.yaml'), ['member1', 'member2']);
  assert.equal(clustersOf(r, 'configmap_web-config.yaml'), ['member1', 'member2']);
  const replicas = (c: string) =>
    (
      parse(r.show('flotilla/rendered', `clusters/${c}/default/deployment.apps_web.yaml`)) as {
        spec: { replicas: number };
      }
    ).spec.replicas;
  assert.is(replicas('member1') + replicas('member2'), 4);
  assert.is(r.show('flotilla/rendered', 'clusters/member1/default/deployment.apps_api.yaml'), apiBefore);
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(message, /FederatedHPA default\/web: Deployment default\/web 1 -> 4 replicas/);
  assert.not.match(message, /default\/api/);

  // A source commit and a moved decision together: both render, still not the fleet.
  r.commit({ 'templates/api.yaml': fleetFiles('nginx:1.28')['templates/api.yaml']! }, 'api on nginx 1.28');
  await decide(repo, 2, 3, 3_000);
  const both = (await sync()).reports;
  assert.is(both.length, 1);
  assert.is(both[0]!.full, false);
  assert.is(replicas('member1') + replicas('member2'), 2);
  assert.match(r.show('flotilla/rendered', 'clusters/member1/default/deployment.apps_api.yaml'), /nginx:1\.28/);

  await assertVerifies(r);
});

test('the decisions that moved: count, autoscaler or the Git count they hold for; every template when the last ones cannot be read', async () => {
  const four: AutoscaledEntry = { replicas: 4, by: 'FederatedHPA default/web', gitReplicas: 2 };
  const three: AutoscaledEntry = { replicas: 3, by: 'FederatedHPA default/api' };
  const before = new Map<string, AutoscaledEntry>([
    [WEB, four],
    [API, three],
  ]);
  assert.equal([...movedAutoscaledKeys(before, before)], []);
  assert.equal(
    [
      ...movedAutoscaledKeys(
        before,
        new Map([
          [WEB, { ...four, replicas: 5 }],
          [API, three],
        ]),
      ),
    ],
    [WEB],
  );
  assert.equal(
    [
      ...movedAutoscaledKeys(
        before,
        new Map([
          [WEB, { ...four, gitReplicas: 3 }],
          [API, three],
        ]),
      ),
    ],
    [WEB],
  );
  assert.equal(
    [...movedAutoscaledKeys(before, new Map([[WEB, { ...four, by: 'CronFederatedHPA default/web' }]]))],
    [WEB, API],
  );

  const r = makeConfigRepoWith(repos, fleetFiles(), 'a fleet');
  const repo = await openRepo(r.dir);
  // No decisions before: every one now moved, nothing to read.
  const first = await autoscaleMovesSince(repo, {}, before);
  assert.ok(first !== 'all');
  assert.equal([...first.moved].sort(), [API, WEB].sort());
  // Decisions recorded from a file, or from a status commit that is gone: they cannot be read again.
  const recorded = { [AUTOSCALED_TRAILER]: autoscaledKey(before) };
  assert.is(await autoscaleMovesSince(repo, { ...recorded, [CLUSTER_STATUS_TRAILER]: 'file' }, new Map()), 'all');
  assert.is(
    await autoscaleMovesSince(repo, { ...recorded, [CLUSTER_STATUS_TRAILER]: '0'.repeat(40) }, new Map()),
    'all',
  );
});

test.run();
