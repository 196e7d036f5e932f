// Each forge's real request shape, checked against a local HTTP recorder on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commitStatusHook } from '../../src/commitStatuses/commitStatusHook.ts';
import type { ForgeConfig } from '../../src/commitStatuses/types.ts';
import { writeCommitStatuses } from '../../src/commitStatuses/writeCommitStatuses.ts';
import type { ClusterDelivery, RenderedDelivery } from '../../src/deliveries/applyRendered.ts';
import type { ApplyResult } from '../../src/deliveries/types.ts';

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; body?: string };

const TOKEN = 'tok-5ecret-123';
const SHA = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2';
let server: Server;
let base: string;
let recorded: Recorded[] = [];
let replies: Reply[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      recorded.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const reply = replies.shift() ?? { status: 201, body: '{"id":1}' };
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
test.before.each(() => {
  recorded = [];
  replies = [];
});

const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });
const cluster = (name: string, results: ApplyResult[], extra: Partial<ClusterDelivery> = {}): ClusterDelivery => ({
  cluster: name,
  results,
  inventory: [],
  writes: 0,
  notes: [],
  previousInventory: [],
  durationMs: 1,
  ...extra,
});
const delivery = (...clusters: ClusterDelivery[]): RenderedDelivery => ({
  renderedCommit: 'f'.repeat(40),
  sourceCommit: SHA,
  clusters: new Map(clusters.map((c) => [c.cluster, c])),
});
const fleet = () =>
  delivery(
    cluster('member1', [
      { ref: ref('a'), action: 'created', message: 'created' },
      { ref: ref('b'), action: 'unchanged', message: '' },
    ]),
    cluster('member2', [{ ref: ref('a'), action: 'held', prune: true, message: 'deletion held by prune safety' }]),
    cluster('member3', [{ ref: ref('a'), action: 'failed', message: 'boom' }], { unreachable: true }),
  );
const noWait = async () => undefined;
/** A loopback address nobody listens on: a port just released. */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
const logs: Record<string, unknown>[] = [];
const write = (config: ForgeConfig, d = fleet()) =>
  writeCommitStatuses({ config, token: TOKEN, delivery: d, log: (e) => logs.push(e), sleep: noWait });
const bodies = () => recorded.map((r) => JSON.parse(r.body) as Record<string, string>);

test('GitHub: POST /repos/{owner}/{repo}/statuses/{sha} with Bearer token, vnd.github+json, one context per cluster', async () => {
  const results = await write({
    forge: 'github',
    apiUrl: base,
    repo: 'acme/fleet',
    tokenEnv: 'GITHUB_TOKEN',
    targetUrl: 'https://example.com/status',
  });
  assert.equal(
    results.map((r) => r.outcome),
    ['sent', 'sent', 'sent'],
  );
  assert.equal(
    recorded.map((r) => [r.method, r.url]),
    [1, 2, 3].map(() => ['POST', `/repos/acme/fleet/statuses/${SHA}`]),
  );
  const h = recorded[0]!.headers;
  assert.is(h.authorization, `Bearer ${TOKEN}`);
  assert.is(h.accept, 'application/vnd.github+json');
  assert.is(h['x-github-api-version'], '2022-11-28');
  assert.is(h['content-type'], 'application/json');
  assert.equal(
    bodies().map((b) => [b.context, b.state]),
    [
      ['flotilla/apply/member1', 'success'],
      ['flotilla/apply/member2', 'failure'],
      ['flotilla/apply/member3', 'error'],
    ],
  );
  assert.is(bodies()[0]!.description, 'applied to member1: 1 created, 1 unchanged');
  assert.is(bodies()[0]!.target_url, 'https://example.com/status');
  assert.match(bodies()[1]!.description!, /^1 deletion\(s\) held by prune safety: add a Flotilla-Allow-Prune trailer/);
  assert.ok(bodies().every((b) => [...b.description!].length <= 140));
});

test('GitHub: a description over 140 characters is cut to 140', async () => {
  const long = cluster(`member-${'x'.repeat(100)}`, [
    { ref: ref('x'), action: 'failed', message: 'x' },
    { ref: ref('y'), action: 'conflict', message: 'y' },
  ]);
  await write({ forge: 'github', apiUrl: base, repo: 'acme/fleet', tokenEnv: 'T' }, delivery(long));
  const d = bodies()[0]!.description!;
  assert.is([...d].length, 140);
  assert.ok(d.endsWith('…'));
});

test('GitLab: POST /projects/{url-encoded path}/statuses/{sha} with PRIVATE-TOKEN, name = context, state failed', async () => {
  await write({ forge: 'gitlab', apiUrl: `${base}/api/v4`, repo: 'group/sub/fleet', tokenEnv: 'GITLAB_TOKEN' });
  assert.is(recorded[0]!.url, `/api/v4/projects/group%2Fsub%2Ffleet/statuses/${SHA}`);
  assert.is(recorded[0]!.headers['private-token'], TOKEN);
  assert.is(recorded[0]!.headers.authorization, undefined);
  assert.equal(
    bodies().map((b) => [b.name, b.state]),
    [
      ['flotilla/apply/member1', 'success'],
      ['flotilla/apply/member2', 'failed'],
      ['flotilla/apply/member3', 'failed'],
    ],
  );
  assert.is(bodies()[0]!.context, undefined);
});

test('GitLab: "Cannot transition status" (already in that state) counts as reported, without retrying', async () => {
  replies = [{ status: 400, body: '{"message":"Cannot transition status via :run from :running"}' }];
  const results = await write({ forge: 'gitlab', apiUrl: `${base}/api/v4`, repo: '42', tokenEnv: 'GITLAB_TOKEN' });
  assert.is(recorded[0]!.url, `/api/v4/projects/42/statuses/${SHA}`);
  assert.equal(
    results.map((r) => [r.outcome, r.attempts]),
    [
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ],
  );
});

test('Gitea/Forgejo: POST /api/v1/repos/{owner}/{repo}/statuses/{sha} with "token X"; held is a warning', async () => {
  await write({ forge: 'gitea', apiUrl: `${base}/api/v1`, repo: 'ops/fleet', tokenEnv: 'GITEA_TOKEN' });
  assert.is(recorded[0]!.url, `/api/v1/repos/ops/fleet/statuses/${SHA}`);
  assert.is(recorded[0]!.headers.authorization, `token ${TOKEN}`);
  assert.equal(
    bodies().map((b) => [b.context, b.state]),
    [
      ['flotilla/apply/member1', 'success'],
      ['flotilla/apply/member2', 'warning'],
      ['flotilla/apply/member3', 'error'],
    ],
  );
});

test('5xx is retried a bounded number of times; a 4xx is not retried; nothing throws', async () => {
  replies = [
    { status: 503 },
    { status: 502 },
    { status: 201 },
    { status: 500 },
    { status: 500 },
    { status: 500 },
    { status: 422, body: '{"message":"Validation Failed"}' },
  ];
  const results = await write({ forge: 'github', apiUrl: base, repo: 'acme/fleet', tokenEnv: 'GITHUB_TOKEN' });
  assert.equal(
    results.map((r) => [r.outcome, r.attempts, r.httpStatus]),
    [
      ['sent', 3, 201],
      ['failed', 3, 500],
      ['failed', 1, 422],
    ],
  );
  assert.is(recorded.length, 7);
});

test('the token never reaches the log, even when the forge echoes it or cannot be reached', async () => {
  logs.length = 0;
  replies = [
    { status: 401, body: JSON.stringify({ message: `Bad credentials: ${TOKEN}` }) },
    { status: 403 },
    { status: 404 },
  ];
  await write({ forge: 'github', apiUrl: base, repo: 'acme/fleet', tokenEnv: 'GITHUB_TOKEN' });
  await write({ forge: 'gitea', apiUrl: `${await closedPort()}/api/v1`, repo: 'ops/fleet', tokenEnv: 'GITEA_TOKEN' });
  const text = JSON.stringify(logs);
  assert.not.match(text, TOKEN);
  assert.match(text, /Bad credentials: \*\*\*/);
  assert.match(text, /fix: the token in GITHUB_TOKEN was refused/);
  assert.match(text, /ECONNREFUSED/);
  assert.ok(logs.every((e) => e.step === 'commitStatus'));
});

test('the afterApply hook sends each status once per commit; a change is sent again', async () => {
  const hook = commitStatusHook(
    { forge: 'github', apiUrl: base, repo: 'acme/fleet', tokenEnv: 'GITHUB_TOKEN' },
    TOKEN,
    () => undefined,
  );
  await hook(fleet());
  assert.is(recorded.length, 3);
  await hook(fleet());
  assert.is(recorded.length, 3, 'a steady state sends nothing');
  const healed = fleet();
  healed.clusters.set('member3', cluster('member3', [{ ref: ref('a'), action: 'created', message: 'created' }]));
  await hook(healed);
  assert.is(recorded.length, 4);
  assert.equal(bodies()[3], {
    state: 'success',
    context: 'flotilla/apply/member3',
    description: 'applied to member3: 1 created',
  });
});

test.run();
