import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { parsedKarmadaFileCount } from '../../src/outputs/karmadaFiles.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepo, makeConfigRepoWith, MEMBERS, nginxSample, sample, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const CACHE = (r: ConfigRepo) => path.join(r.dir, '.git', 'flotilla-parsed.jsonl');
const OLD_CACHE = (r: ConfigRepo) => path.join(r.dir, '.git', 'flotilla-parsed.json');
type Entry = [key: string, start: number, length: number, scope: { fleet?: true; policies: string[] }];
type Header = { parser: string; tree: string; at: number; always: Entry[]; buckets: [number, number][] };
/** The last line of the cache, its header: the parser, the tree, the files every render reads, where the rest is. */
const header = (r: ConfigRepo) => {
  const lines = readFileSync(CACHE(r), 'utf8').split('\n');
  return JSON.parse(lines[lines.length - 2]!) as Header;
};
/** Spans count from the start of the file. */
const inFile = (_r: ConfigRepo, span: readonly [number, number]): [number, number] => [span[0], span[1]];
const lineAt = (r: ConfigRepo, span: readonly [number, number]) => {
  const [start, length] = inFile(r, span);
  return readFileSync(CACHE(r)).toString('utf8', start, start + length);
};
/** Every entry: those every render reads, then those of each bucket line (`<blob oid> <path>`, its line, its scope). */
const entriesOf = (r: ConfigRepo) => {
  const h = header(r);
  const all = new Map(h.always.map((e) => [e[0], e]));
  for (const span of h.buckets)
    if (span[1] > 0) for (const e of JSON.parse(lineAt(r, span)) as Entry[]) if (!all.has(e[0])) all.set(e[0], e);
  return [...all.values()];
};
const keysOf = (r: ConfigRepo) => entriesOf(r).map(([key]) => key);
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const nginxRepo = () => makeConfigRepoWith(repos, nginxSample(), 'nginx');

// Each sync opens the repo afresh, as a new process would: only the file on disk carries parsed policies over.
const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

/** One edit committed to both repos, synced in `r` as `syncR` does and in `parsed` without a cache: the same tree. */
async function sameAsParsingAll(
  r: ConfigRepo,
  parsed: ConfigRepo,
  file: string,
  edit: (text: string) => string,
  what: string,
  syncR: () => Promise<unknown>,
): Promise<void> {
  for (const repo of [r, parsed]) repo.commit({ [file]: edit(repo.show('HEAD', file)) }, what);
  await syncR();
  rmSync(CACHE(parsed), { force: true });
  await sync(parsed);
  assert.is(
    r.git('rev-parse', 'flotilla/rendered^{tree}'),
    parsed.git('rev-parse', 'flotilla/rendered^{tree}'),
    `${what} (${file})`,
  );
}

test('a render keeps the parsed policy and cluster files, by blob oid and path, beside the object store', async () => {
  const r = nginxRepo();
  await sync(r);
  const keys = keysOf(r).sort();
  const expected = ['clusters/member1.yaml', 'clusters/member2.yaml', 'clusters/member3.yaml', 'policies/nginx.yaml']
    .map((f) => `${r.git('rev-parse', `HEAD:${f}`)} ${f}`)
    .sort();
  assert.equal(keys, expected, 'templates are not kept, only Karmada files');
  assert.ok(
    r.ls('flotilla/rendered').every((f) => !f.includes('parsed')),
    'nothing of it reaches the output branch',
  );
});

test('a sync that reads the kept files makes the same output commit as one that parses everything again', async () => {
  const withCache = nginxRepo();
  const without = nginxRepo();
  for (const r of [withCache, without]) {
    await sync(r);
    r.commit({ 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') }, 'four');
  }
  writeFileSync(CACHE(without), 'not json at all {');
  await sync(withCache);
  await sync(without);
  assert.is(withCache.git('rev-parse', 'flotilla/rendered'), without.git('rev-parse', 'flotilla/rendered'));
});

test('a policy change is parsed and replaces the kept version; a garbled or foreign cache file is ignored', async () => {
  const r = nginxRepo();
  await sync(r);
  writeFileSync(
    CACHE(r),
    `${JSON.stringify({ format: 4, parser: 'some other Flotilla', tree: 'x', paths: 'x', directory: [0, 0], always: [], buckets: [] })}\n`,
  );
  const pinned = sample('nginx/propagationpolicy.yaml').replace(/\n *- member2\n/, '\n');
  r.commit({ 'policies/nginx.yaml': pinned }, 'member1 only');
  await sync(r);
  assert.ok(existsSync(CACHE(r)));
  assert.is.not(header(r).parser, 'some other Flotilla');
  assert.ok(keysOf(r).includes(`${r.git('rev-parse', 'HEAD:policies/nginx.yaml')} policies/nginx.yaml`));
  assert.not.ok(
    keysOf(r).includes(`${r.git('rev-parse', 'HEAD~1:policies/nginx.yaml')} policies/nginx.yaml`),
    'the old version is dropped',
  );
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member2/default/deployment.apps_nginx.yaml'));
});

test("each kept line is the parsed file; the header lists the fleet-wide ones, a bucket line the namespace's", async () => {
  const r = nginxRepo();
  await sync(r);
  const scopes = new Map<string, { fleet?: true; policies: string[] }>();
  for (const [key, start, length, scope] of entriesOf(r)) {
    const file = JSON.parse(lineAt(r, [start, length])) as { file: string };
    assert.is(file.file, key.slice(key.indexOf(' ') + 1));
    scopes.set(file.file, scope);
  }
  assert.equal(scopes.get('clusters/member1.yaml'), { fleet: true, policies: [] });
  assert.equal(scopes.get('policies/nginx.yaml'), {
    policies: ['policy.karmada.io/v1alpha1/PropagationPolicy/default/nginx-propagation'],
  });
  const pathOf = ([key]: Entry) => key.slice(key.indexOf(' ') + 1);
  assert.equal(
    header(r).always.map(pathOf),
    ['clusters/member1.yaml', 'clusters/member2.yaml', 'clusters/member3.yaml'],
    'every render reads these',
  );
  const bucketed = header(r)
    .buckets.filter(([, length]) => length > 0)
    .flatMap((span) => (JSON.parse(lineAt(r, span)) as Entry[]).map(pathOf));
  assert.equal(bucketed, ['policies/nginx.yaml'], 'read for templates of its namespace only');
});

test('a cache cut short or with a header that lies is ignored: the sync parses again and commits the same', async () => {
  const truncated = nginxRepo();
  const intact = nginxRepo();
  for (const r of [truncated, intact]) {
    await sync(r);
    r.commit(
      { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 3') },
      'three',
    );
  }
  const text = readFileSync(CACHE(truncated), 'utf8');
  writeFileSync(CACHE(truncated), text.slice(0, text.length - 40));
  await sync(truncated);
  await sync(intact);
  assert.is(truncated.git('rev-parse', 'flotilla/rendered'), intact.git('rev-parse', 'flotilla/rendered'));
  assert.ok(readFileSync(CACHE(truncated), 'utf8').endsWith('\n'), 'written whole again');
});

test('the version 1 file (one JSON object) is not read, and is removed once the current version is written', async () => {
  const r = nginxRepo();
  writeFileSync(OLD_CACHE(r), JSON.stringify({ parser: 'x', entries: {} }));
  await sync(r);
  assert.ok(existsSync(CACHE(r)));
  assert.not.ok(existsSync(OLD_CACHE(r)));
});

/** Overwrites the kept line of `file` with something that is not JSON; returns the cache's new bytes. */
function garble(r: ConfigRepo, file: string): Buffer {
  const bytes = readFileSync(CACHE(r));
  const [, offset, size] = entriesOf(r).find(([key]) => key.endsWith(` ${file}`))!;
  const [start, length] = inFile(r, [offset, size]);
  bytes.fill(0x20, start, start + length);
  bytes.write('{', start);
  writeFileSync(CACHE(r), bytes);
  return bytes;
}

/** Policies in three namespaces; `b` also has a policy defined twice, which every output commit reports. */
function threeNamespaces(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  const deployment = (ns: string) =>
    sample('nginx/deployment.yaml').replace(/metadata:\n/, `metadata:\n  namespace: ${ns}\n`);
  const policy = (ns: string, name = 'nginx-propagation') =>
    sample('nginx/propagationpolicy.yaml').replace(/name: nginx-propagation\n/, `name: ${name}\n  namespace: ${ns}\n`);
  r.commit(
    {
      ...MEMBERS,
      'templates/a.yaml': deployment('a'),
      'templates/b.yaml': deployment('b'),
      'templates/c.yaml': deployment('c'),
      'policies/a.yaml': policy('a'),
      'policies/b.yaml': policy('b'),
      'policies/b-copy.yaml': policy('b'),
      'policies/c.yaml': policy('c'),
    },
    'three namespaces',
  );
  return r;
}

/** Two identical repos, synced, then a change to template a committed: the first keeps its cache, the second has none. */
async function oneWithCacheOneWithout(): Promise<
  [ReturnType<typeof threeNamespaces>, ReturnType<typeof threeNamespaces>]
> {
  const repos = [threeNamespaces(), threeNamespaces()] as const;
  for (const r of repos) {
    await sync(r);
    r.commit(
      { 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') },
      'a: four',
    );
  }
  rmSync(CACHE(repos[1]));
  return [repos[0], repos[1]];
}

test("a template change reads only its namespace's policies from the cache, and commits what a sync that parses everything commits", async () => {
  const [cached, parsed] = await oneWithCacheOneWithout();
  // The header alone keeps this sync from parsing c's policy: garble its line, which would be parsed again from its
  // blob and the cache written anew if it were read.
  const garbled = garble(cached, 'policies/c.yaml');
  const [withCache, withoutCache] = [await sync(cached), await sync(parsed)];
  assert.equal(readFileSync(CACHE(cached)), garbled, "c's line was never read");
  assert.is(cached.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  assert.ok(
    cached.show('flotilla/rendered', 'clusters/member1/a/deployment.apps_nginx.yaml').includes('replicas: 2'),
    'a (4 replicas) divided over two clusters',
  );
  for (const report of [withCache, withoutCache]) {
    assert.ok(
      report.reports[0]!.problems.some((p) => p.code === 'DUPLICATE_OBJECT' && p.file.startsWith('policies/b')),
      'the duplicate in b is still reported',
    );
  }
});

test('a kept line that does not parse is parsed again from its blob: same commit, and the cache is written whole again', async () => {
  const [cached, parsed] = await oneWithCacheOneWithout();
  const garbled = garble(cached, 'policies/a.yaml');
  await sync(cached);
  await sync(parsed);
  assert.is(cached.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  assert.not.equal(readFileSync(CACHE(cached)), garbled);
  const [, offset, size] = entriesOf(cached).find(([key]) => key.endsWith(' policies/a.yaml'))!;
  assert.is((JSON.parse(lineAt(cached, [offset, size])) as { file: string }).file, 'policies/a.yaml');
});

test('a cache saved for a tree with other Karmada files (a policy file deleted since) does not pick the files: same commit as parsing all', async () => {
  const stale = threeNamespaces();
  const parsed = threeNamespaces();
  let saved: Buffer | undefined;
  for (const r of [stale, parsed]) {
    await sync(r);
    saved ??= readFileSync(CACHE(r));
    // b's duplicate goes: the copy saved above still lists it among the files every render reads.
    r.commit({ 'policies/b-copy.yaml': null }, 'b: one policy');
    await sync(r);
    r.commit(
      { 'templates/b.yaml': r.show('HEAD', 'templates/b.yaml').replace('replicas: 2', 'replicas: 4') },
      'b: four',
    );
  }
  writeFileSync(CACHE(stale), saved!);
  rmSync(CACHE(parsed));
  const [withStale, withoutCache] = [await sync(stale), await sync(parsed)];
  assert.is(stale.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  for (const report of [withStale, withoutCache]) {
    assert.not.ok(
      report.reports[0]!.problems.some((p) => p.code === 'DUPLICATE_OBJECT'),
      'the deleted copy is not read back from the cache',
    );
  }
  assert.ok(
    stale.show('flotilla/rendered', 'clusters/member1/b/deployment.apps_nginx.yaml').includes('replicas: 2'),
    'b (4 replicas) divided over two clusters',
  );
});

test('a bucket line that is not one: the files are looked up instead, and the commit is the same', async () => {
  const garbled = threeNamespaces();
  const parsed = threeNamespaces();
  for (const r of [garbled, parsed]) {
    await sync(r);
    r.commit(
      { 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') },
      'a: four',
    );
  }
  rmSync(CACHE(parsed));
  const bytes = readFileSync(CACHE(garbled));
  for (const span of header(garbled).buckets) {
    if (span[1] === 0) continue;
    const [start, length] = inFile(garbled, span);
    bytes.fill(0x20, start, start + length);
    bytes.write('[', start);
  }
  writeFileSync(CACHE(garbled), bytes);
  await sync(garbled);
  await sync(parsed);
  assert.is(garbled.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  assert.ok(garbled.show('flotilla/rendered', 'clusters/member1/a/deployment.apps_nginx.yaml').includes('replicas: 2'));
});

test("a kept line that is another file's is not taken for this one: parsed again from its blob, same commit", async () => {
  const lying = threeNamespaces();
  const parsed = threeNamespaces();
  for (const r of [lying, parsed]) {
    await sync(r);
    r.commit(
      { 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') },
      'a: four',
    );
  }
  rmSync(CACHE(parsed));
  // a's policy line swapped for c's (same length or not, the header still points at a's place): valid JSON, wrong file.
  const entries = entriesOf(lying);
  const find = (file: string) => entries.find(([key]) => key.endsWith(` ${file}`))!;
  const [aStart, aLength] = inFile(lying, [find('policies/a.yaml')[1], find('policies/a.yaml')[2]]);
  const [cStart, cLength] = inFile(lying, [find('policies/c.yaml')[1], find('policies/c.yaml')[2]]);
  const bytes = readFileSync(CACHE(lying));
  const c = bytes.toString('utf8', cStart, cStart + cLength);
  assert.ok(c.length <= aLength, "c's line fits in a's");
  bytes.fill(0x20, aStart, aStart + aLength);
  bytes.write(c, aStart);
  writeFileSync(CACHE(lying), bytes);
  await sync(lying);
  await sync(parsed);
  assert.is(lying.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
});

test("a template change in a new process reads the header and its namespace's bucket line only", async () => {
  const cached = threeNamespaces();
  const parsed = threeNamespaces();
  for (const r of [cached, parsed]) {
    await sync(r);
    r.commit(
      { 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') },
      'a: four',
    );
  }
  rmSync(CACHE(parsed));
  // Read, a garbled bucket line of b or c would leave their files to be looked up and parsed, and the cache saved.
  const bytes = readFileSync(CACHE(cached));
  const spans = header(cached).buckets;
  const aBucket = spans.find((span) => span[1] > 0 && lineAt(cached, span).includes('policies/a.yaml'));
  for (const span of spans) {
    if (span[1] === 0 || span === aBucket) continue;
    bytes.fill(0x20, span[0], span[0] + span[1]);
    bytes.write('[', span[0]);
  }
  writeFileSync(CACHE(cached), bytes);
  await sync(cached);
  await sync(parsed);
  assert.equal(readFileSync(CACHE(cached)), bytes, 'not written again: nothing was parsed anew');
  assert.is(cached.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
});

test('a policy change appends its line, the bucket lines that changed and a header: the lines before stay as they were', async () => {
  const r = threeNamespaces();
  const parsed = threeNamespaces();
  await sync(r);
  const before = readFileSync(CACHE(r));
  const cBucket = header(r).buckets.find((span) => span[1] > 0 && lineAt(r, span).includes('policies/c.yaml'))!;
  for (const repo of [r, parsed]) {
    await sync(repo);
    repo.commit(
      { 'policies/a.yaml': repo.show('HEAD', 'policies/a.yaml').replace(/\n *- member2\n/, '\n') },
      'a: member1 only',
    );
  }
  rmSync(CACHE(parsed));
  await sync(r);
  await sync(parsed);
  assert.is(r.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  const after = readFileSync(CACHE(r));
  assert.equal(after.subarray(0, before.length), before, 'appended to');
  assert.ok(after.length - before.length < before.length, 'only what changed is written');
  assert.ok(
    keysOf(r).includes(`${r.git('rev-parse', 'HEAD:policies/a.yaml')} policies/a.yaml`) &&
      !keysOf(r).includes(`${r.git('rev-parse', 'HEAD~1:policies/a.yaml')} policies/a.yaml`),
    "the header points at a's new version only",
  );
  assert.equal(
    header(r).buckets.find((span) => span[1] > 0 && lineAt(r, span).includes('policies/c.yaml')),
    cBucket,
    "c's bucket line is kept where it was",
  );
  // The next process reads the appended version, and parses nothing: the file stays as it is.
  r.commit({ 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') }, 'a: 4');
  await sync(r);
  assert.equal(readFileSync(CACHE(r)), after);
});

test("a cluster's change appends its line as a policy's does, and a new process selecting by its new labels reads them", async () => {
  const r = threeNamespaces();
  const parsed = threeNamespaces();
  for (const repo of [r, parsed]) await sync(repo);
  const before = readFileSync(CACHE(r));
  const steps: [string, (text: string) => string][] = [
    ['clusters/member2.yaml', (t) => t.replace('name: member2\n', 'name: member2\n  labels:\n    tier: gold\n')],
    [
      'policies/a.yaml',
      (t) =>
        t.replace(/clusterNames:\n(\s*- member\d\n)+/, 'labelSelector:\n        matchLabels:\n          tier: gold\n'),
    ],
  ];
  for (const [i, [file, edit]] of steps.entries()) {
    await sameAsParsingAll(r, parsed, file, edit, `step ${i}`, () => sync(r));
    if (i === 0) {
      const after = readFileSync(CACHE(r));
      assert.equal(after.subarray(0, before.length), before, 'appended to');
      assert.ok(after.length - before.length < before.length, 'only what changed is written');
    }
  }
  assert.ok(
    r.show('flotilla/rendered', 'clusters/member2/a/deployment.apps_nginx.yaml').length > 0 &&
      r.git('ls-tree', 'flotilla/rendered', 'clusters/member1/a/').trim() === '',
    "a's nginx goes to the gold cluster only",
  );
});

test('a save cut short by a crash (a last line that is no header) is ignored: parsed again, same commit, written whole', async () => {
  const crashed = threeNamespaces();
  const parsed = threeNamespaces();
  for (const r of [crashed, parsed]) {
    await sync(r);
    r.commit({ 'templates/a.yaml': r.show('HEAD', 'templates/a.yaml').replace('replicas: 2', 'replicas: 4') }, 'a: 4');
  }
  rmSync(CACHE(parsed));
  const whole = readFileSync(CACHE(crashed));
  // Half an entry line and half a header, as a process killed in the middle of appending leaves them.
  writeFileSync(
    CACHE(crashed),
    Buffer.concat([whole, Buffer.from('{"file":"policies/a.yaml","propagationPo\n{"format":5,')]),
  );
  await sync(crashed);
  await sync(parsed);
  assert.is(crashed.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  assert.ok(readFileSync(CACHE(crashed)).length <= whole.length, 'written whole again, without the cut-short lines');
  assert.is(keysOf(crashed).length, keysOf(parsed).length);
});

test('one process saving again and again (a reconciler) appends each time, and a new process reads the last save', async () => {
  const r = threeNamespaces();
  const parsed = threeNamespaces();
  const repo = await openRepo(r.dir);
  const syncOpen = () => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  await syncOpen();
  await sync(parsed);
  const sizes = [readFileSync(CACHE(r)).length];
  const edits: [string, (text: string) => string][] = [
    ['policies/a.yaml', (t) => t.replace(/\n *- member2\n/, '\n')],
    ['policies/c.yaml', (t) => t.replace(/\n *- member1\n/, '\n')],
    ['policies/a.yaml', (t) => t.replace(/- member1\n/, '- member1\n        - member2\n')],
  ];
  for (const [i, [file, edit]] of edits.entries()) {
    for (const x of [r, parsed]) x.commit({ [file]: edit(x.show('HEAD', file)) }, `edit ${i}`);
    await syncOpen();
    await sync(parsed);
    assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), parsed.git('rev-parse', 'flotilla/rendered^{tree}'));
    const bytes = readFileSync(CACHE(r));
    assert.ok(bytes.length > sizes[sizes.length - 1]!, `save ${i} appended`);
    sizes.push(bytes.length);
  }
  // What the header points at is this tree's files, each line the file it says.
  const expected = [
    'policies/a.yaml',
    'policies/b.yaml',
    'policies/b-copy.yaml',
    'policies/c.yaml',
    ...Object.keys(MEMBERS),
  ]
    .map((f) => `${r.git('rev-parse', `HEAD:${f}`)} ${f}`)
    .sort();
  assert.equal(keysOf(r).sort(), expected);
  for (const [key, start, length] of entriesOf(r))
    assert.is((JSON.parse(lineAt(r, [start, length])) as { file: string }).file, key.slice(key.indexOf(' ') + 1));
  // A new process takes the appended file as it is (nothing parsed anew, nothing written) and renders the same.
  for (const x of [r, parsed])
    x.commit({ 'templates/b.yaml': x.show('HEAD', 'templates/b.yaml').replace('replicas: 2', 'replicas: 4') }, 'b: 4');
  const before = readFileSync(CACHE(r));
  await sync(r);
  await sync(parsed);
  assert.equal(readFileSync(CACHE(r)), before);
  assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), parsed.git('rev-parse', 'flotilla/rendered^{tree}'));
});

test('a reconciler holds one parsed version of each policy and cluster file, however often they change', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  const syncOpen = () => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  await syncOpen();
  const karmadaFiles = () => keysOf(r).length;
  assert.is(parsedKarmadaFileCount(repo), karmadaFiles());
  const policy = sample('nginx/propagationpolicy.yaml');
  const labelled = (name: string, i: number) =>
    policy.replace('name: nginx-propagation', `name: ${name}\n  labels:\n    edit: "${i}"`);
  for (let i = 0; i < 6; i++) {
    // Saved by appending (the one file replaced), and whole (a policy file added, then taken away again).
    const files: Record<string, string | null> = { 'policies/nginx.yaml': labelled('nginx-propagation', i) };
    if (i === 2) files['policies/extra.yaml'] = labelled('extra', i);
    if (i === 4) files['policies/extra.yaml'] = null;
    r.commit(files, `edit ${i}`);
    await syncOpen();
    assert.is(parsedKarmadaFileCount(repo), karmadaFiles(), `after edit ${i}: this tree's files only`);
  }
});

test('a reconciler reading two trees in turn (a branch and another) parses and saves their policies once', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  const policy = sample('nginx/propagationpolicy.yaml');
  r.git('branch', 'other');
  r.git('checkout', '-q', 'other');
  r.commit({ 'policies/nginx.yaml': policy.replace(/\n *- member2\n/, '\n') }, 'other: member1 only');
  r.git('checkout', '-q', 'main');
  const syncBoth = async () => {
    await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
    await syncRepo(repo, { sourceRef: 'refs/heads/other', outputRef: 'refs/heads/flotilla/rendered-other' });
  };
  await syncBoth();
  const saved = readFileSync(CACHE(r));
  for (let i = 0; i < 3; i++) {
    for (const branch of ['main', 'other']) {
      r.git('checkout', '-q', branch);
      r.commit({
        'templates/nginx.yaml': sample('nginx/deployment.yaml').replace(/replicas: \d+/, `replicas: ${i + 3}`),
      });
    }
    r.git('checkout', '-q', 'main');
    await syncBoth();
    assert.equal(readFileSync(CACHE(r)), saved, `round ${i}: nothing parsed anew, nothing saved`);
  }
  assert.not.ok(r.ls('flotilla/rendered-other').some((f) => f.startsWith('clusters/member2/')));
  assert.ok(r.ls('flotilla/rendered').some((f) => f.startsWith('clusters/member2/')));
});

test("a namespaced policy change in a new process reads its namespaces' bucket lines only, and appends what it replaced", async () => {
  const cached = threeNamespaces();
  const parsed = threeNamespaces();
  for (const r of [cached, parsed]) {
    await sync(r);
    r.commit({ 'policies/a.yaml': r.show('HEAD', 'policies/a.yaml').replace(/\n *- member2\n/, '\n') }, 'a: member1');
  }
  rmSync(CACHE(parsed));
  // Read, c's garbled bucket line would leave every file to be looked up and parsed, and the cache written whole.
  const bytes = readFileSync(CACHE(cached));
  const cBucket = header(cached).buckets.find(
    (span) => span[1] > 0 && lineAt(cached, span).includes('policies/c.yaml'),
  )!;
  assert.not.ok(lineAt(cached, cBucket).includes('policies/a.yaml'), 'a and c share no bucket line');
  bytes.fill(0x20, cBucket[0], cBucket[0] + cBucket[1]);
  bytes.write('[', cBucket[0]);
  writeFileSync(CACHE(cached), bytes);
  await sync(cached);
  await sync(parsed);
  assert.is(cached.git('rev-parse', 'flotilla/rendered'), parsed.git('rev-parse', 'flotilla/rendered'));
  const after = readFileSync(CACHE(cached));
  assert.equal(after.subarray(0, bytes.length), bytes, 'appended to, the garbled line left where it is');
  assert.equal(
    header(cached).buckets.find((span) => span[0] === cBucket[0]),
    cBucket,
    "c's line still pointed at",
  );
  const aKey = `${cached.git('rev-parse', 'HEAD:policies/a.yaml')} policies/a.yaml`;
  const aLines = header(cached).buckets.filter((span) => span[1] > 0 && lineAt(cached, span).includes(aKey));
  assert.is(aLines.length, 1, "a's new version is listed in its bucket line");
});

test('a policy that stops being, or becomes, defined twice moves its files out of, or into, what every sync reads: appended as a whole write says', async () => {
  const r = threeNamespaces();
  const parsed = threeNamespaces();
  await sync(r);
  await sync(parsed);
  /** The header's fleet-wide keys, and each bucket line's keys, sorted: what a cache holds, wherever its lines are. */
  const layout = (x: ConfigRepo) => {
    const h = header(x);
    const buckets = h.buckets.map((span) =>
      span[1] === 0 ? [] : (JSON.parse(lineAt(x, span)) as Entry[]).map(([key]) => key).sort(),
    );
    return { always: h.always.map(([key]) => key).sort(), buckets };
  };
  const steps: [string, string, (text: string) => string][] = [
    // b's policy is defined once now: b.yaml and b-copy.yaml leave `always` for b's bucket line.
    ['policies/b-copy.yaml', 'b-copy renamed', (t) => t.replace('name: nginx-propagation', 'name: other')],
    // c.yaml now defines a's policy, a second time: both files go to `always`, c's policy leaves.
    ['policies/c.yaml', "c holds a's policy", (t) => t.replace('namespace: c', 'namespace: a')],
    // And back: b's policy twice again.
    ['policies/b-copy.yaml', 'b-copy back', (t) => t.replace('name: other', 'name: nginx-propagation')],
  ];
  for (const [file, message, edit] of steps) {
    for (const x of [r, parsed]) x.commit({ [file]: edit(x.show('HEAD', file)) }, message);
    const before = readFileSync(CACHE(r));
    await sync(r);
    rmSync(CACHE(parsed));
    await sync(parsed);
    assert.is(r.git('rev-parse', 'flotilla/rendered^{tree}'), parsed.git('rev-parse', 'flotilla/rendered^{tree}'));
    const after = readFileSync(CACHE(r));
    assert.equal(after.subarray(0, before.length), before, `${message}: appended to`);
    assert.equal(layout(r), layout(parsed), `${message}: the same entries in the same places`);
  }
  assert.ok(layout(r).always.some((key) => key.endsWith(' policies/b-copy.yaml')));
  assert.ok(layout(r).always.some((key) => key.endsWith(' policies/c.yaml')));
});

test('a reconciler syncing template, policy and cluster changes in turn renders what a sync parsing everything renders', async () => {
  const r = threeNamespaces();
  const parsed = threeNamespaces();
  const repo = await openRepo(r.dir);
  const syncOpen = () => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  await syncOpen();
  await sync(parsed);
  const edits: [string, (text: string) => string][] = [
    ['templates/a.yaml', (t) => t.replace('replicas: 2', 'replicas: 3')],
    ['templates/b.yaml', (t) => t.replace('replicas: 2', 'replicas: 4')],
    ['policies/c.yaml', (t) => t.replace(/\n *- member1\n/, '\n')],
    ['templates/c.yaml', (t) => t.replace('replicas: 2', 'replicas: 5')],
    ['clusters/member2.yaml', (t) => t.replace('name: member2\n', 'name: member2\n  labels:\n    tier: gold\n')],
    ['templates/a.yaml', (t) => t.replace('replicas: 3', 'replicas: 6')],
  ];
  for (const [i, [file, edit]] of edits.entries()) await sameAsParsingAll(r, parsed, file, edit, `edit ${i}`, syncOpen);
});

test('a file mostly of lines no header points at is written whole by the next save', async () => {
  const r = threeNamespaces();
  await sync(r);
  // 3 MiB of dead lines before a header that says where it is: a valid file, three times more than it holds.
  const whole = readFileSync(CACHE(r));
  const h = header(r);
  const dead = Buffer.from(`${'x'.repeat(1023)}\n`.repeat(3 * 1024));
  const moved = { ...h, at: h.at + dead.length };
  writeFileSync(CACHE(r), Buffer.concat([whole.subarray(0, h.at), dead, Buffer.from(`${JSON.stringify(moved)}\n`)]));
  r.commit({ 'policies/a.yaml': r.show('HEAD', 'policies/a.yaml').replace(/\n *- member2\n/, '\n') }, 'a: member1');
  await sync(r);
  const after = readFileSync(CACHE(r));
  assert.ok(after.length < dead.length, `written whole (${after.length} bytes)`);
  assert.ok(keysOf(r).includes(`${r.git('rev-parse', 'HEAD:policies/a.yaml')} policies/a.yaml`));
});

test.run();
