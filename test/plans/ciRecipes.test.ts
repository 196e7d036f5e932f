// The CI recipes in repo-template/ cannot rot: every `flotilla …` command line they contain runs (variables
// substituted by a real shell) against a cloned config repo with a pull-request branch, and the comment/note steps
// run against fakes of the forge APIs.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const TEMPLATE = path.resolve(import.meta.dirname, '../../repo-template');
const MARKER = '<!-- flotilla-plan -->';

interface Workflow {
  jobs: Record<string, { steps: { run?: string; uses?: string; with?: { script?: string } }[] }>;
}
const github = parse(readFileSync(path.join(TEMPLATE, '.github/workflows/flotilla.yml'), 'utf8')) as Workflow;
const gitlab = parse(readFileSync(path.join(TEMPLATE, '.gitlab-ci.yml'), 'utf8')) as Record<
  string,
  { script?: string[] }
>;
const githubShell = Object.values(github.jobs)
  .flatMap((j) => j.steps.map((s) => s.run ?? ''))
  .join('\n');
const gitlabShell = Object.values(gitlab)
  .flatMap((j) => j.script ?? [])
  .join('\n');

/** Each line that runs `flotilla <command> …`, up to the end of its simple command (`|| code=$?` and the like). */
function flotillaCommands(shell: string): string[] {
  return shell
    .split('\n')
    .map((l) => /^\s*(flotilla\s+[a-z]+\b.*?)(?:\s*(?:\|\||&&|;).*)?$/.exec(l)?.[1])
    .filter((c): c is string => Boolean(c));
}

let origin: ConfigRepo;
let root: string;
let clone: string;
let shim: string;
let server: Server;
let api: string;
const requests: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
let notes: { id: number; body: string; system: boolean }[] = [];

const run = (cmd: string, env: Record<string, string>, cwd = clone) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', cmd],
      { cwd, env: { PATH: `${shim}:${process.env.PATH}`, HOME: root, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });

test.before(async () => {
  origin = makeConfigRepo();
  origin.commit(
    {
      ...MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
    },
    'nginx',
  );
  root = mkdtempSync(path.join(tmpdir(), 'flotilla-ci-'));
  clone = path.join(root, 'clone');
  origin.git('clone', '-q', origin.dir, clone);
  const git = (...args: string[]) =>
    run(`git -c user.name=Ada -c user.email=ada@example.com ${args.join(' ')}`, { GIT_CONFIG_GLOBAL: '/dev/null' });
  await git('checkout', '-q', '-b', 'feature');
  writeFileSync(
    path.join(clone, 'templates/nginx.yaml'),
    sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4'),
  );
  assert.is((await git('commit', '-qam', "'nginx: 4 replicas'")).code, 0);
  // `flotilla` on the PATH, as `npm install -g` puts it there in CI.
  shim = path.join(root, 'bin');
  await run(`mkdir -p ${shim}`, {}, root);
  writeFileSync(path.join(shim, 'flotilla'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(shim, 'flotilla'), 0o755);

  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.method === 'GET')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(notes));
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
});

test.after(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  origin?.cleanup();
  if (root) rmSync(root, { recursive: true, force: true });
});

for (const [name, shell, env] of [
  ['GitHub Actions', githubShell, { BASE: 'main' }],
  ['GitLab CI', gitlabShell, { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' }],
] as const) {
  test(`${name}: every flotilla command line runs against a PR branch (validate 0, plan 1 = changes, markdown)`, async () => {
    const commands = flotillaCommands(shell);
    assert.equal(
      commands.map((c) => c.split(/\s+/)[1]),
      ['validate', 'plan'],
      commands.join('\n'),
    );
    assert.match(commands[1]!, /-o markdown/);
    rmSync(path.join(clone, 'plan.md'), { force: true });
    const [validate, plan] = [await run(commands[0]!, env), await run(commands[1]!, env)];
    assert.is(validate.code, 0, validate.stderr + readFileSync(path.join(clone, 'validate.txt'), 'utf8'));
    assert.is(
      plan.code,
      1,
      `${plan.stderr}${existsSync(path.join(clone, 'plan.err')) ? readFileSync(path.join(clone, 'plan.err'), 'utf8') : ''}`,
    );
    const md = readFileSync(path.join(clone, 'plan.md'), 'utf8');
    assert.match(md, /^### Flotilla plan `[0-9a-f]{12}` → `[0-9a-f]{12}`/);
    assert.match(md, /member1/);
  });
}

test('GitHub Actions: the github-script step creates one comment with the marker, then updates that one', async () => {
  const step = Object.values(github.jobs)
    .flatMap((j) => j.steps)
    .find((s) => s.uses?.startsWith('actions/github-script@'))!;
  const calls: [string, Record<string, unknown>][] = [];
  let existing: unknown[] = [];
  const fakeGithub = {
    paginate: async (
      fn: (p: Record<string, unknown>) => Promise<{ data: unknown[] }>,
      params: Record<string, unknown>,
    ) => (await fn(params)).data,
    rest: {
      issues: {
        listComments: async (p: Record<string, unknown>) => {
          calls.push(['list', p]);
          return { data: existing };
        },
        createComment: async (p: Record<string, unknown>) => {
          calls.push(['create', p]);
          return { data: {} };
        },
        updateComment: async (p: Record<string, unknown>) => {
          calls.push(['update', p]);
          return { data: {} };
        },
      },
    },
  };
  const context = { repo: { owner: 'acme', repo: 'fleet' }, issue: { number: 7 } };
  // Files are read relative to the checkout, as on the runner.
  const fakeRequire = (m: string) => {
    assert.is(m, 'fs');
    return {
      existsSync: (f: string) => existsSync(path.join(clone, f)),
      readFileSync: (f: string, e: BufferEncoding) => readFileSync(path.join(clone, f), e),
    };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...a: unknown[]) => Promise<void>;
  const script = new AsyncFunction('require', 'github', 'context', 'process', step.with!.script!);
  const proc = { env: { PLAN_CODE: '1', VALIDATE_CODE: '0' } };
  await script(fakeRequire, fakeGithub, context, proc);
  assert.equal(
    calls.map(([k]) => k),
    ['list', 'create'],
  );
  const created = calls[1]![1] as { body: string; issue_number: number };
  assert.is(created.issue_number, 7);
  assert.ok(created.body.startsWith(MARKER));
  assert.match(created.body, /### Flotilla plan/);
  existing = [
    { id: 1, user: { type: 'User' }, body: `${MARKER} quoted by a human` },
    { id: 42, user: { type: 'Bot' }, body: created.body },
  ];
  calls.length = 0;
  await script(fakeRequire, fakeGithub, context, { env: { PLAN_CODE: '3', VALIDATE_CODE: '1' } });
  assert.equal(
    calls.map(([k]) => k),
    ['list', 'update'],
  );
  const updated = calls[1]![1] as { body: string; comment_id: number };
  assert.is(updated.comment_id, 42, 'the bot comment, not a human quoting the marker');
  assert.match(updated.body, /flotilla plan failed/);
  assert.match(updated.body, /flotilla validate found errors/);
});

test('GitLab CI: the note step creates one MR note through the API with PRIVATE-TOKEN, then updates it', async () => {
  const noteStep = Object.values(gitlab)
    .flatMap((j) => j.script ?? [])
    .find((s) => s.startsWith('node -e'))!;
  const env = {
    CI_API_V4_URL: api,
    CI_PROJECT_ID: '12',
    CI_MERGE_REQUEST_IID: '3',
    FLOTILLA_GITLAB_TOKEN: 'glpat-test',
    PLAN_CODE: '1',
    VALIDATE_CODE: '0',
  };
  notes = [];
  const first = await run(noteStep, env);
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, 'created the plan note');
  assert.equal(
    requests.map((r) => [r.method, r.url]),
    [
      ['GET', '/api/v4/projects/12/merge_requests/3/notes?per_page=100&page=1'],
      ['POST', '/api/v4/projects/12/merge_requests/3/notes'],
    ],
  );
  assert.is(requests[1]!.headers['private-token'], 'glpat-test');
  const body = (JSON.parse(requests[1]!.body) as { body: string }).body;
  assert.ok(body.startsWith(MARKER));
  assert.match(body, /### Flotilla plan/);
  notes = [
    { id: 5, body: 'MR opened', system: true },
    { id: 9, body, system: false },
  ];
  requests.length = 0;
  const second = await run(noteStep, env);
  assert.is(second.code, 0, second.stderr);
  assert.equal(
    requests.map((r) => [r.method, r.url]),
    [
      ['GET', '/api/v4/projects/12/merge_requests/3/notes?per_page=100&page=1'],
      ['PUT', '/api/v4/projects/12/merge_requests/3/notes/9'],
    ],
  );
  const missing = await run(noteStep, { ...env, FLOTILLA_GITLAB_TOKEN: '' });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /set the CI\/CD variable FLOTILLA_GITLAB_TOKEN/);
});

test('the workflow fails the job on validation errors or a failed plan, never on exit 1 (changes)', () => {
  const fail = Object.values(github.jobs)
    .flatMap((j) => j.steps)
    .find((s) => s.run?.includes('exit 1') && (s as { if?: string }).if) as { if: string };
  assert.match(fail.if, /steps\.plan\.outputs\.code != '0' && steps\.plan\.outputs\.code != '1'/);
  assert.match(gitlabShell, /\[ "\$PLAN_CODE" -le 1 \]/);
});

test.run();
