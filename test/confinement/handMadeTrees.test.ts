import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffTrees } from '../../src/commits/diffTrees.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { isSafeEntryName } from '../../src/commits/safeEntryName.ts';
import { readUnitLayout } from '../../src/units/readUnitLayout.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { renderUnit } from '../../src/units/renderUnit.ts';
import { commitAll, makeTempRepo, writeBlob, writeWorkTree, type TempRepo } from '../commits/helpers/tempRepo.ts';

// A tree object can be written by hand with any entry names (`git hash-object --literally`); forges that fsck what
// they receive refuse `..` and `.git`, a plain or self-hosted remote may not. Such names never become paths here.

const repos: TempRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** A tree of these entries in this order, written without git's checks. */
function literalTree(repo: TempRepo, entries: [mode: string, name: string, oid: string][]): string {
  const body = Buffer.concat(
    entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])),
  );
  return repo.git(['hash-object', '-t', 'tree', '--literally', '-w', '--stdin'], { input: body }).trim();
}

test('names git would not check out are no names: empty, dot, dot-dot, .git in any case and with trailing dots', () => {
  for (const name of ['', '.', '..', '.git', '.GIT', '.Git.', '.git ', 'a/b', 'a\0b'])
    assert.is(isSafeEntryName(name), false, JSON.stringify(name));
  for (const name of ['.gitignore', '.github', '..data', 'git', '...', 'a.b']) assert.ok(isSafeEntryName(name), name);
});

test("a hand-made tree's `..` and `.git` entries are neither listed, diffed, nor written out for a unit", async () => {
  const r = makeTempRepo();
  repos.push(r);
  writeWorkTree(r, {
    'apps/web/kustomization.yaml': 'resources: [cm.yaml]\n',
    'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n',
  });
  const base = commitAll(r, 'a kustomization');
  // apps/web/../../../../../escaped.yaml, and a .git folder beside the kustomization.
  const escaped = writeBlob(r, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: escaped}\n');
  let chain = literalTree(r, [['100644', 'escaped.yaml', escaped]]);
  for (let i = 0; i < 5; i++) chain = literalTree(r, [['40000', '..', chain]]);
  const hooks = literalTree(r, [['100755', 'post-checkout', escaped]]);
  const web = r.git(['rev-parse', `${base}:apps/web`]).trim();
  const webEntries = r
    .git(['ls-tree', web])
    .trim()
    .split('\n')
    .map((line) => {
      const [meta, name] = line.split('\t') as [string, string];
      const [mode, , oid] = meta.split(' ') as [string, string, string];
      return [mode, name, oid] as [string, string, string];
    });
  const hostile = literalTree(r, [['40000', '..', chain], ['40000', '.GIT', hooks], ...webEntries]);
  const apps = literalTree(r, [['40000', 'web', hostile]]);
  const root = literalTree(r, [['40000', 'apps', apps]]);
  const repo = await openRepo(r.path);
  const baseTree = (await readCommitInfo(repo, base)).tree;

  assert.equal([...(await listTreeFiles(repo, root)).keys()], ['apps/web/cm.yaml', 'apps/web/kustomization.yaml']);
  assert.equal(await diffTrees(repo, baseTree, root), []);
  const unit = (await readUnitLayout(repo, root, undefined, {})).units.find((u) => u.dir === 'apps/web')!;
  const out = await renderUnit(repo, root, unit);
  assert.ok(!('error' in out && out.error), JSON.stringify(out).slice(0, 300));
  assert.not.match(JSON.stringify(out), 'escaped');
});

test('a unit whose tree names a path twice, or longer than a file system takes, is held at that path, and the next commit renders', async () => {
  const r = makeTempRepo();
  repos.push(r);
  writeWorkTree(r, {
    'apps/web/kustomization.yaml': 'resources: [cm.yaml]\n',
    'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n',
    'templates/plain.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n',
  });
  const good = commitAll(r, 'a kustomization');
  const repo = await openRepo(r.path);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const entriesOf = (tree: string) =>
    r
      .git(['ls-tree', tree])
      .trim()
      .split('\n')
      .map((line) => {
        const [meta, name] = line.split('\t') as [string, string];
        const [mode, , oid] = meta.split(' ') as [string, string, string];
        return [mode, name, oid] as [string, string, string];
      });
  const blob = writeBlob(r, 'x: 1\n');
  const inner = literalTree(r, [['100644', 'inner.yaml', blob]]);
  const web = r.git(['rev-parse', `${good}:apps/web`]).trim();
  const withWeb = (entries: [string, string, string][]) => {
    const apps = literalTree(r, [['40000', 'web', literalTree(r, entries)]]);
    return literalTree(r, [
      ['40000', 'apps', apps],
      ['40000', 'templates', r.git(['rev-parse', `${good}:templates`]).trim()],
    ]);
  };
  const commitTree = (tree: string, parent: string, message: string) => {
    const sha = r.git(['commit-tree', tree, '-p', parent, '-m', message]).trim();
    r.git(['update-ref', 'refs/heads/main', sha]);
    return sha;
  };
  const long = 'b'.repeat(300);
  const cases: [string, [string, string, string][], string][] = [
    // `dup` both a file and a folder: written out, one of them cannot be.
    ['twice', [['100644', 'dup', blob], ['40000', 'dup', inner], ...entriesOf(web)], 'apps/web/dup'],
    ['long', [...entriesOf(web), ['100644', long, blob]], `apps/web/${long}`],
  ];
  let parent = good;
  for (const [label, entries, file] of cases) {
    const root = withWeb(entries);
    const unit = (await readUnitLayout(repo, root, undefined, {})).units.find((u) => u.dir === 'apps/web')!;
    const out = await renderUnit(repo, root, unit);
    assert.ok(out.unreadable, label);
    assert.equal(
      out.problems.map((p) => [p.file, p.code]),
      [[file, 'UNIT_FAILED']],
      label,
    );
    assert.not.match(out.problems[0]!.message, 'flotilla-unit-', label);
    parent = commitTree(root, parent, label);
  }
  // A commit after them, as git writes it: each commit is rendered, the held ones keep the unit's last output.
  writeWorkTree(r, { 'templates/later.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: later}\n' });
  r.git(['read-tree', good]);
  r.git(['add', 'templates/later.yaml']);
  const last = commitTree(r.git(['write-tree']).trim(), parent, 'a ConfigMap');
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  assert.match(r.git(['log', '-1', '--format=%B', 'flotilla/rendered']), `Source-Commit: ${last}`);
});

test.run();
