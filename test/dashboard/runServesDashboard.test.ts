// `flotilla run` as a process serves the dashboard on its listener: on loopback as is, elsewhere only with
// --ui-token-env (and without it answers /ui/ with 403 and says why, its other endpoints unchanged).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { waitFor } from '../deliveries/helpers/e2e.ts';
import { spawnFlotilla, type Child } from '../helpers/spawnFlotilla.ts';
import { makeFleetRepo } from '../views/helpers/fleetRepo.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';

let repo: TempRepo;
let credentials: string;
const children: Child[] = [];

test.before(async () => {
  ({ repo } = await makeFleetRepo());
  credentials = mkdtempSync(path.join(tmpdir(), 'flotilla-credentials-'));
});
test.after(async () => {
  for (const c of children) await c.stop();
  repo?.cleanup();
  rmSync(credentials, { recursive: true, force: true });
});

function run(listen: string, env: Record<string, string> = {}, extra: string[] = []): Child {
  const child = spawnFlotilla(
    ['run', '--repo', repo.path, '--credentials-dir', credentials, '--listen', listen, '--resync', '0', ...extra],
    env,
  );
  children.push(child);
  return child;
}

test('on a loopback --listen the dashboard is at /ui/ and its API reads the repo', async () => {
  const child = run('127.0.0.1:0');
  const line = await waitFor('the dashboard line', () => /dashboard at (http:\S+)\/ui\//.exec(child.stderr()), 30_000);
  const fleet = await fetch(`${line[1]}/ui/api/fleet`);
  assert.is(fleet.status, 200);
  assert.is(((await fleet.json()) as { workloads: { total: number } }).workloads.total, 1);
  assert.is((await fetch(`${line[1]}/healthz`)).status, 200);
  assert.is(await child.stop(), 0);
});

test('elsewhere, without a token /ui/ is refused with the reason; with --ui-token-env it needs the token', async () => {
  const open = run('0.0.0.0:0');
  await waitFor('the refusal', () => open.stderr().includes('no dashboard:'), 30_000);
  assert.match(open.stderr(), 'authenticating proxy');
  const port = (await open.events.next('start', (e) => e.step === 'start', 30_000, true)).listen as string;
  const base = `http://127.0.0.1:${new URL(port).port}`;
  const refused = await fetch(`${base}/ui/`);
  assert.is(refused.status, 403);
  assert.match(((await refused.json()) as { error: string }).error, '--ui-token-env');
  assert.is((await fetch(`${base}/healthz`)).status, 200);
  assert.is(await open.stop(), 0);

  const guarded = run('0.0.0.0:0', { FLOTILLA_UI_TOKEN: 'a-long-random-token' }, [
    '--ui-token-env',
    'FLOTILLA_UI_TOKEN',
  ]);
  await waitFor('the dashboard line', () => guarded.stderr().includes('dashboard at'), 30_000);
  const url = `http://127.0.0.1:${new URL((await guarded.events.next('start', (e) => e.step === 'start', 30_000, true)).listen as string).port}`;
  assert.is((await fetch(`${url}/ui/api/fleet`)).status, 401);
  assert.is(
    (await fetch(`${url}/ui/api/fleet`, { headers: { Authorization: 'Bearer a-long-random-token' } })).status,
    200,
  );
  assert.is(await guarded.stop(), 0);
});

test("the dashboard reads a source commit within run's --max-source-files, as its render does", async () => {
  repo.git(['branch', 'bombed', 'main']);
  const bomb = commitTreeBomb(repo.path, 'bombed', 'a billion paths', 'clusters/member1/bomb');
  const child = run('127.0.0.1:0', {}, ['--max-source-files', '100']);
  const line = await waitFor('the dashboard line', () => /dashboard at (http:\S+)\/ui\//.exec(child.stderr()), 30_000);
  const res = await fetch(`${line[1]}/ui/api/diff?commit=${bomb}&cluster=member1`);
  assert.is(res.status, 422);
  const { error } = (await res.json()) as { error: string };
  assert.match(error, `commit ${bomb.slice(0, 12)} changes over 2000 files and folders under clusters/member1/`);
  assert.match(error, 'the dashboard diffs at most 2000');
  assert.is(await child.stop(), 0);
});

test.run();
