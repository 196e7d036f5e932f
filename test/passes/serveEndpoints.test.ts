import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReconcilerMetrics } from '../../src/passes/createReconcilerMetrics.ts';
import { serveEndpoints, type Endpoints } from '../../src/passes/serveEndpoints.ts';
import type { Forge } from '../../src/passes/verifyWebhook.ts';
import { forgeHeaders, hmacHex } from '../helpers/forgeDeliveries.ts';

const SECRET = "It's a Secret to Everybody";
const hex = (body: string, secret = SECRET) => hmacHex(body, secret);
const sign = (forge: Forge, body: string, id: string, secret = SECRET) => forgeHeaders(forge, body, id, secret);

let hinted: Forge[] = [];
let ready = { ready: false, reason: 'no pass has finished yet' };
const metrics = createReconcilerMetrics('test-repo');
let server: Endpoints;

test.before(async () => {
  server = await serveEndpoints({
    host: '127.0.0.1',
    port: 0,
    metrics,
    webhookSecret: SECRET,
    log: () => undefined,
    maxBodyBytes: 4096,
    readiness: () => ready,
    onWebhook: (forge) => {
      hinted.push(forge);
    },
  });
});
test.after(() => server.close());
test.before.each(() => {
  hinted = [];
});

const post = (forge: string, body: string, headers: Record<string, string>) =>
  fetch(`${server.url}/hooks/${forge}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

for (const forge of ['github', 'gitlab', 'gitea', 'generic'] as Forge[]) {
  test(`${forge}: a good delivery is accepted (202) and hints a fetch; a replay of it is refused and fetches nothing`, async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: 'a'.repeat(40) });
    const id = randomUUID();
    const ok = await post(forge, body, sign(forge, body, id));
    assert.is(ok.status, 202, await ok.clone().text());
    assert.equal(await ok.json(), { accepted: true, delivery: id });
    assert.equal(hinted, [forge]);
    const replay = await post(forge, body, sign(forge, body, id));
    assert.is(replay.status, 409);
    assert.match(await replay.text(), `delivery ${id} was already received`);
    assert.equal(hinted, [forge], 'the replay hinted nothing');
  });

  test(`${forge}: wrong secret, missing proof, modified body: 401 and nothing fetched`, async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const wrong = await post(forge, body, sign(forge, body, randomUUID(), 'not the secret'));
    assert.is(wrong.status, 401);
    assert.match(await wrong.text(), 'does not match');
    const headers = sign(forge, body, randomUUID());
    const proofless = Object.fromEntries(Object.entries(headers).filter(([k]) => !/signature|token/i.test(k)));
    const missing = await post(forge, body, proofless);
    assert.is(missing.status, 401);
    assert.match(await missing.text(), 'missing');
    const tampered = await post(forge, body.replace('main', 'evil'), sign(forge, body, randomUUID()));
    // GitLab's token does not cover the body: the body only ever hints "fetch now", so that is all it could change.
    assert.is(tampered.status, forge === 'gitlab' ? 202 : 401);
    assert.equal(hinted, forge === 'gitlab' ? ['gitlab'] : []);
  });
}

test("Forgejo headers are read as Gitea's", async () => {
  const body = '{}';
  const res = await post('gitea', body, { 'X-Forgejo-Signature': hex(body), 'X-Forgejo-Delivery': randomUUID() });
  assert.is(res.status, 202);
});

test('a body over the cap is refused with 413 before anything else; unknown forge 404; GET 405', async () => {
  const big = 'x'.repeat(5000);
  const res = await post('github', big, sign('github', big, randomUUID()));
  assert.is(res.status, 413);
  assert.is((await post('bitbucket', '{}', {})).status, 404);
  assert.is((await fetch(`${server.url}/hooks/github`)).status, 405);
  assert.equal(hinted, []);
});

test('/healthz is 200 while the process lives; /readyz follows readiness with its reason', async () => {
  const h = await fetch(`${server.url}/healthz`);
  assert.is(h.status, 200);
  ready = { ready: false, reason: 'last pass failed: boom' };
  const notReady = await fetch(`${server.url}/readyz`);
  assert.is(notReady.status, 503);
  assert.match(await notReady.text(), 'last pass failed: boom');
  ready = { ready: true, reason: '' };
  assert.is((await fetch(`${server.url}/readyz`)).status, 200);
});

test("/metrics: Prometheus text with the reconciler's families, Karmada and Flux names included", async () => {
  metrics.recordPass({
    ok: true,
    durationMs: 120,
    sourceCommitTime: 1_700_000_000,
    result: {
      rendered: [],
      statusCommit: 'c'.repeat(40),
      statusPaths: ['clusters/m1.yaml'],
      writes: 2,
      delivery: { renderedCommit: 'r'.repeat(40), sourceCommit: 's'.repeat(40), clusters: new Map() },
      reports: [
        {
          cluster: 'member1',
          status: { conditions: [{ type: 'Ready', status: 'True' }], nodeSummary: { totalNum: 3, readyNum: 3 } },
          delivery: {
            cluster: 'member1',
            writes: 2,
            notes: [],
            inventory: [],
            previousInventory: [],
            durationMs: 40,
            results: [
              {
                ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' },
                action: 'created',
                message: '',
              },
              {
                ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'c' },
                action: 'configured',
                message: '',
              },
            ],
          },
        },
        { cluster: 'member2', status: { conditions: [{ type: 'Ready', status: 'False' }] } },
        // No node ready: the count is left out of the summary, as the Cluster API leaves a zero out.
        {
          cluster: 'member3',
          status: { conditions: [{ type: 'Ready', status: 'True' }], nodeSummary: { totalNum: 2 } },
        },
      ],
    },
  });
  metrics.recordPass({ ok: false, durationMs: 5 });
  const res = await fetch(`${server.url}/metrics`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'text/plain');
  const text = await res.text();
  for (const line of [
    'cluster_ready_state{member_cluster="member1"} 1',
    'cluster_ready_state{member_cluster="member2"} 0',
    'cluster_node_number{member_cluster="member1"} 3',
    'cluster_ready_node_number{member_cluster="member3"} 0',
    'gotk_reconcile_duration_seconds_count{kind="Flotilla",name="test-repo",namespace=""} 2',
    'flotilla_reconcile_passes_total{result="success"} 1',
    'flotilla_reconcile_passes_total{result="failure"} 1',
    'flotilla_apply_writes_total{member_cluster="member1"} 2',
    'create_resource_to_cluster{apiversion="apps/v1",kind="Deployment",member_cluster="member1",result="success",recreate="false"} 1',
    'update_resource_to_cluster{apiversion="v1",kind="ConfigMap",member_cluster="member1",result="success",operationResult="updated"} 1',
    'work_sync_workload_duration_seconds_count{result="success"} 1',
    'flotilla_last_applied_source_commit_timestamp_seconds 1700000000',
    `flotilla_last_applied_info{source_commit="${'s'.repeat(40)}",rendered_commit="${'r'.repeat(40)}"} 1`,
    'flotilla_webhook_deliveries_total{forge="github",result="accepted"}',
    'flotilla_webhook_deliveries_total{forge="github",result="too_large"} 1',
    'process_cpu_seconds_total',
  ])
    assert.ok(text.includes(line), `missing: ${line}`);
});

test.run();
