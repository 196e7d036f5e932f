// The dashboard's HTTP side on a repo with all three branches: the API answers in the shapes the CLI prints, only
// GET, only with the token when one is set, the page under a strict policy, and the event stream announces a move.
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getCommand } from '../../src/commands/getCommand.ts';
import { uiCommand } from '../../src/commands/uiCommand.ts';
import { MAX_EVENT_STREAMS, MAX_EVENT_STREAMS_PER_ADDRESS } from '../../src/dashboard/createDashboard.ts';
import { serveDashboard, type ServedDashboard } from '../../src/dashboard/serveDashboard.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { makeFleetRepo } from '../views/helpers/fleetRepo.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';

const TOKEN = 'test-token-0123456789';
let repo: TempRepo;
let served: ServedDashboard;

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  served = await serveDashboard({ gitdir: repo.path, host: '127.0.0.1', port: 0, token: TOKEN });
});
test.after(async () => {
  await served?.close();
  repo?.cleanup();
});

const auth = { Authorization: `Bearer ${TOKEN}` };

async function cli(...args: string[]): Promise<unknown> {
  let out = '';
  await getCommand([...args, '--repo', repo.path, '-o', 'json'], {
    out: (s) => {
      out += s;
    },
    err: () => {},
    now: () => new Date(),
  });
  return JSON.parse(out);
}

test('the fleet API returns the clusters as `flotilla get clusters -o json` and each workload as `get <kind> NAME -o json`', async () => {
  const res = await fetch(`${served.url}/ui/api/fleet`, { headers: auth });
  assert.is(res.status, 200);
  assert.is(res.headers.get('cache-control'), 'no-store');
  const body = (await res.json()) as {
    clusters: { items: unknown[] };
    workloads: {
      total: number;
      items: { key: string; object: unknown; placement: { name: string; replicas: number }[] }[];
    };
  };
  assert.equal(body.clusters.items, ((await cli('clusters')) as { items: unknown[] }).items);
  assert.is(body.workloads.total, 1);
  const nginx = body.workloads.items[0]!;
  assert.is(nginx.key, 'apps/v1/Deployment/default/nginx');
  assert.equal(nginx.object, await cli('deploy', 'nginx'));
  assert.equal(
    nginx.placement.map((p) => `${p.name}:${p.replicas}`),
    ['member1:1', 'member2:1'],
  );
});

test('an answer of a kilobyte and more travels gzipped to a client that takes it, and as it is to one that does not', async () => {
  const raw = (acceptEncoding: string | undefined) =>
    new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
      const url = new URL(`${served.url}/ui/api/fleet`);
      const headers = { ...auth, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) };
      get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            encoding: res.headers['content-encoding'],
            vary: res.headers.vary,
            body: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    });
  const plain = await raw(undefined);
  assert.is(plain.encoding, undefined);
  assert.ok(plain.body.length > 1024, `${plain.body.length} bytes`);
  const zipped = await raw('gzip, deflate, br');
  assert.is(zipped.encoding, 'gzip');
  assert.is(zipped.vary, 'Accept-Encoding');
  assert.ok(zipped.body.length * 3 < plain.body.length, `${zipped.body.length} of ${plain.body.length} bytes`);
  assert.equal(JSON.parse(gunzipSync(zipped.body).toString('utf8')), JSON.parse(plain.body.toString('utf8')));
  assert.is((await raw('gzip;q=0, identity')).encoding, undefined);
});

test('read-only and token-guarded: other methods are refused, no token is 401, ?token= becomes an HttpOnly cookie', async () => {
  const post = await fetch(`${served.url}/ui/api/fleet`, { method: 'POST', headers: auth });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'GET, HEAD');
  assert.is((await fetch(`${served.url}/ui/`)).status, 401);
  assert.is((await fetch(`${served.url}/ui/api/fleet`, { headers: { Authorization: 'Bearer nope' } })).status, 401);
  const login = await fetch(`${served.url}/ui/?token=${TOKEN}`, { redirect: 'manual' });
  assert.is(login.status, 303);
  assert.is(login.headers.get('location'), '/ui/');
  const cookie = login.headers.get('set-cookie')!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const page = await fetch(`${served.url}/ui/`, { headers: { Cookie: cookie.split(';')[0]! } });
  assert.is(page.status, 200);
  const csp = page.headers.get('content-security-policy')!;
  assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  assert.is(page.headers.get('x-content-type-options'), 'nosniff');
  assert.match(await page.text(), '<script type="importmap">');
  for (const vendor of ['preact.mjs', 'hooks.mjs', 'htm.mjs']) {
    const js = await fetch(`${served.url}/ui/vendor/${vendor}`, { headers: auth });
    assert.is(js.status, 200, vendor);
    assert.match(js.headers.get('content-type')!, 'text/javascript');
  }
});

test('the event stream announces the heads, and again when a branch moves', async () => {
  const res = await fetch(`${served.url}/ui/api/events`, { headers: auth });
  assert.match(res.headers.get('content-type')!, 'text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const nextHeads = async () => {
    for (;;) {
      const end = text.indexOf('\n\n');
      if (end >= 0) {
        const event = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (/^event: heads$/m.test(event) && data) return JSON.parse(data) as { source: string };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      text += decoder.decode(value, { stream: true });
    }
  };
  const first = await nextHeads();
  assert.is(first.source, repo.git(['rev-parse', 'main']).trim());
  repo.git(['commit', '-q', '--allow-empty', '-m', 'a move on main']);
  const second = await nextHeads();
  assert.is(second.source, repo.git(['rev-parse', 'main']).trim());
  assert.is.not(second.source, first.source);
  await reader.cancel();
});

/** An event stream opened from a given loopback address (every 127.x address reaches the listener on Linux). */
function openStream(from: string): Promise<{ status: number; body: string; close(): void }> {
  const { port } = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/ui/api/events', headers: auth, localAddress: from }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        // Resolved at the first announcement (the stream is counted then) or at the end of a refusal.
        if (res.statusCode === 200 && body.includes('\n\n')) resolve({ status: 200, body, close: () => req.destroy() });
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, close: () => req.destroy() }));
    });
    req.on('error', reject);
  });
}

test('one address gets a bounded number of event streams, the listener a bounded number in all, and the fleet is still answered', async () => {
  const held: { close(): void }[] = [];
  const holdStreams = async (from: string, count: number) => {
    for (let i = 0; i < count; i++) {
      const s = await openStream(from);
      assert.is(s.status, 200);
      held.push(s);
    }
  };
  try {
    await holdStreams('127.0.0.1', MAX_EVENT_STREAMS_PER_ADDRESS);
    const overAddress = await openStream('127.0.0.1');
    assert.is(overAddress.status, 503);
    assert.match(JSON.parse(overAddress.body).error, 'open from your address already');
    // The same address still has connections for the page and its API calls.
    assert.is((await fetch(`${served.url}/ui/api/fleet`, { headers: auth })).status, 200);
    await holdStreams('127.0.0.2', MAX_EVENT_STREAMS - MAX_EVENT_STREAMS_PER_ADDRESS);
    const over = await openStream('127.0.0.3');
    assert.is(over.status, 503);
    assert.match(JSON.parse(over.body).error, 'event streams are open already');
    held.pop()!.close();
    // The closed stream's place is free again once the server has seen it close.
    const deadline = Date.now() + 10_000;
    for (;;) {
      assert.ok(Date.now() < deadline, 'a closed stream never freed its place');
      const again = await openStream('127.0.0.3');
      if (again.status === 200) {
        held.push(again);
        break;
      }
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    for (const s of held) s.close();
  }
});

test('the plan API reads revisions only as refs and commits: a file of the git directory is no revision, and its text is never answered', async () => {
  repo.git(['config', 'remote.origin.url', 'https://bot:ghp_SECRETTOKEN123@example.com/fleet.git']);
  for (const rev of ['config', 'logs/HEAD', 'description']) {
    const res = await fetch(`${served.url}/ui/api/plan?base=${encodeURIComponent(rev)}&head=main`, { headers: auth });
    const body = await res.text();
    assert.is.not(res.status, 200, rev);
    assert.not.match(body, 'ghp_SECRETTOKEN123', rev);
    assert.not.match(body, '[remote', rev);
    assert.not.match(body, 'Unnamed repository', rev);
    assert.match(body, rev);
  }
});

test('a plan of a revision that does not exist is answered 404 with the fix, and is no failure of the server', async () => {
  const logged: Record<string, unknown>[] = [];
  const open = await serveDashboard({ gitdir: repo.path, host: '127.0.0.1', port: 0, log: (e) => logged.push(e) });
  try {
    const res = await fetch(`${open.url}/ui/api/plan?base=no-such-branch&head=main`);
    assert.is(res.status, 404);
    assert.match(((await res.json()) as { error: string }).error, 'revision "no-such-branch" not found');
    const plan = await fetch(`${open.url}/ui/api/plan?base=main&head=main`);
    assert.is(plan.status, 200);
    const sha = repo.git(['rev-parse', 'main']).trim();
    assert.is(((await plan.json()) as { head: string }).head, sha);
    assert.equal(
      logged.filter((e) => 'error' in e),
      [],
    );
  } finally {
    await open.close();
  }
});

test('a placement of a key neither the source head nor the rendered branch knows is 404, as its object is', async () => {
  for (const key of ['apps/v1/Deployment/default/no-such-app', 'nonsense', '']) {
    const q = new URLSearchParams({ key });
    const object = await fetch(`${served.url}/ui/api/object?${q}`, { headers: auth });
    const explain = await fetch(`${served.url}/ui/api/explain?${q}`, { headers: auth });
    assert.is(object.status, 404, key);
    assert.is(explain.status, 404, key);
    assert.match(((await explain.json()) as { error: string }).error, `no template ${key} at the head of main`);
  }
  const nginx = await fetch(`${served.url}/ui/api/explain?key=apps/v1/Deployment/default/nginx`, { headers: auth });
  assert.is(nginx.status, 200);
});

test("a cluster's diff names one folder under clusters/: `.`, `..` and a path are 400, as an empty name is", async () => {
  const commit = repo.git(['rev-parse', 'flotilla/rendered']).trim();
  for (const cluster of ['', '.', '..', 'member1/..', '../main']) {
    const res = await fetch(`${served.url}/ui/api/diff?${new URLSearchParams({ commit, cluster })}`, { headers: auth });
    assert.is(res.status, 400, cluster);
    assert.match(((await res.json()) as { error: string }).error, 'cluster=<name>');
  }
  assert.is((await fetch(`${served.url}/ui/api/diff?commit=${commit}&cluster=member1`, { headers: auth })).status, 200);
});

test('without a token only loopback Host names are served, so a page elsewhere cannot read it through DNS rebinding', async () => {
  const open = await serveDashboard({ gitdir: repo.path, host: '127.0.0.1', port: 0 });
  try {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${open.url}/ui/api/fleet`);
        get({ host: url.hostname, port: url.port, path: url.pathname, headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
    assert.is(await status(new URL(open.url).host), 200);
    assert.is(await status('localhost:9465'), 200);
    assert.is(await status('attacker.example:9465'), 403);
  } finally {
    await open.close();
  }
});

test('flotilla ui serves until Ctrl-C, then says it stopped and that the repo was only read', async () => {
  let stop = () => {};
  const out: string[] = [];
  const err: string[] = [];
  const run = uiCommand({
    repo: repo.path,
    sourceBranch: 'main',
    listen: '127.0.0.1:0',
    uiTokenEnv: undefined,
    uiToken: undefined,
    cwd: process.cwd(),
    out: (s) => {
      out.push(s);
      if (s.startsWith('Dashboard: ')) stop();
    },
    err: (s) => err.push(s),
    stopSignal: new Promise<void>((resolve) => {
      stop = resolve;
    }),
  });
  assert.is(await run, 0);
  const url = /^Dashboard: (\S+)\n$/.exec(out[0] ?? '')?.[1];
  assert.ok(url, out.join(''));
  assert.is(err.at(-1), `flotilla ui: stopped serving ${url}; ${repo.path} was only read, nothing in it changed\n`);
});

test('flotilla ui refuses an address other machines reach without a token, and says what to do instead', async () => {
  const run = uiCommand({
    repo: repo.path,
    sourceBranch: 'main',
    listen: '0.0.0.0:0',
    uiTokenEnv: undefined,
    uiToken: undefined,
    cwd: process.cwd(),
    out: () => {},
    err: () => {},
    stopSignal: new Promise(() => {}),
  });
  try {
    await run;
    assert.unreachable('it listened');
  } catch (err) {
    assert.match((err as Error).message, '--ui-token-env VAR');
    assert.match((err as Error).message, 'authenticating proxy');
  }
});

test('flotilla ui takes a repository on this machine, and says how to get one from a URL', async () => {
  try {
    await uiCommand({
      repo: 'https://bot:token@git.example.com/fleet.git',
      sourceBranch: 'main',
      listen: '127.0.0.1:0',
      uiTokenEnv: undefined,
      uiToken: undefined,
      cwd: process.cwd(),
      out: () => {},
      err: () => {},
      stopSignal: new Promise(() => {}),
    });
    assert.unreachable('it served a URL');
  } catch (err) {
    assert.match((err as Error).message, 'git clone --mirror');
    assert.not.match((err as Error).message, 'token@');
  }
});

test("flotilla ui's --listen errors name its own default, 127.0.0.1:9465, and never offer off", async () => {
  for (const listen of ['nonsense', 'off']) {
    try {
      await uiCommand({
        repo: repo.path,
        sourceBranch: 'main',
        listen,
        uiTokenEnv: undefined,
        uiToken: undefined,
        cwd: process.cwd(),
        out: () => {},
        err: () => {},
        stopSignal: new Promise(() => {}),
      });
      assert.unreachable(`it served on ${listen}`);
    } catch (err) {
      const message = (err as Error).message;
      assert.match(message, `--listen ${listen}: write HOST:PORT (default 127.0.0.1:9465; port 0 = any free port)`);
      assert.not.match(message, 'or off');
    }
  }
});

test("a cluster's diff of a commit too large to walk is answered 422 with the commit, the bound and how to see it", async () => {
  repo.git(['branch', 'bombed', 'main']);
  const bomb = commitTreeBomb(repo.path, 'bombed', 'a billion paths', 'clusters/member1/bomb');
  const started = performance.now();
  const res = await fetch(`${served.url}/ui/api/diff?commit=${bomb}&cluster=member1`, { headers: auth });
  assert.ok(performance.now() - started < 2000, 'refused before the walk got far');
  assert.is(res.status, 422);
  const { error } = (await res.json()) as { error: string };
  assert.match(error, `commit ${bomb.slice(0, 12)} changes over 1000000 files and folders under clusters/member1/`);
  assert.match(error, `git show --stat ${bomb.slice(0, 12)} -- clusters/member1/`);
  // Another cluster's folder is not walked at all: its diff is empty, and the server answers on.
  const other = await fetch(`${served.url}/ui/api/diff?commit=${bomb}&cluster=member2`, { headers: auth });
  assert.is(other.status, 200);
  assert.is(((await other.json()) as { diff: string }).diff, '');
});

test.run();
