import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexNamespaceList } from '../../src/branches/rendered/indexNamespaceList.ts';
import { openOutputIndex, readIndexOids } from '../../src/branches/rendered/readOutputIndex.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMap, configMapPolicy, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const LIST = (dir: string) => path.join(dir, '.git', 'flotilla-index-namespaces.json');
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const oid = (n: number) => n.toString(16).padStart(40, '0');

test('the list says which namespaces a shard holds, by blob oid, in either encoding, and knows nothing it was not told', () => {
  const list = IndexNamespaceList.empty();
  const many = new Set(Array.from({ length: 90 }, (_, i) => `ns-${i}`));
  list.set(oid(1), new Set(['shop', 'billing']));
  list.set(oid(2), many);
  list.set(oid(3), new Set());
  const text = list.textFor([oid(1), oid(2), oid(3)]);
  const shards = (JSON.parse(text) as { shards: Record<string, unknown> }).shards;
  assert.type(shards[oid(1)], 'object', 'two of 92 names: their indexes');
  assert.type(shards[oid(2)], 'string', 'ninety of 92 names: a bitmap');
  const read = IndexNamespaceList.parse(text)!;
  assert.equal(read.namespacesOf(oid(1)), new Set(['shop', 'billing']));
  assert.equal(read.namespacesOf(oid(2)), many);
  assert.equal(read.namespacesOf(oid(3)), new Set());
  assert.is(read.holdsAny(oid(1), new Set(['shop', 'other'])), true);
  assert.is(read.holdsAny(oid(2), new Set(['shop', 'never-seen'])), false);
  assert.is(read.holdsAny(oid(3), new Set(['shop'])), false);
  assert.is(read.holdsAny(oid(4), new Set(['shop'])), undefined, 'a shard it does not know');
  assert.is(read.namespacesOf(oid(4)), undefined);

  // Kept for one tree: another tree's shards go; a shard learned with a new namespace is encoded with the rest.
  read.set(oid(5), new Set(['new-team']));
  const moved = IndexNamespaceList.parse(read.textFor([oid(2), oid(5)]))!;
  assert.equal(moved.namespacesOf(oid(2)), many);
  assert.equal(moved.namespacesOf(oid(5)), new Set(['new-team']));
  assert.is(moved.namespacesOf(oid(1)), undefined);
  assert.not.ok((JSON.parse(read.textFor([oid(5)])) as { namespaces: string[] }).namespaces.includes('shop'));
});

test('a list cut short, of another format, or naming what it does not hold is no list', () => {
  const list = IndexNamespaceList.empty();
  list.set(oid(1), new Set(['shop']));
  const text = list.textFor([oid(1)]);
  for (let cut = 0; cut < text.length - 2; cut += 7) assert.is(IndexNamespaceList.parse(text.slice(0, cut)), undefined);
  assert.ok(IndexNamespaceList.parse(text));
  assert.is(IndexNamespaceList.parse(text.replace('"format":1', '"format":2')), undefined);
  const naming = (set: string) => `{"format":1,"namespaces":["shop"],"shards":{"${oid(1)}":${set}}}`;
  assert.equal(IndexNamespaceList.parse(naming('[0]'))?.namespacesOf(oid(1)), new Set(['shop']));
  assert.is(IndexNamespaceList.parse(naming('[1]')), undefined, 'an index past the names');
  assert.is(IndexNamespaceList.parse(naming('"ff"')), undefined, 'a bitmap past the names');
  assert.is(IndexNamespaceList.parse('null'), undefined);
});

/** Twelve namespaces of four ConfigMaps each, each placed by its namespace's policy. */
function fleet(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
  };
  for (let t = 0; t < 12; t++) {
    files[`policies/team-${t}.yaml`] = configMapPolicy(['member1'], `team-${t}`);
    for (let c = 0; c < 4; c++) files[`templates/team-${t}/c${c}.yaml`] = configMap(`c${c}`, `v${c}`, `team-${t}`);
  }
  r.commit(files, 'twelve teams');
  return r;
}

const sync = async (dir: string) => syncRepo(await openRepo(dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

const renderedTree = (dir: string) =>
  execFileSync('git', ['-C', dir, 'rev-parse', `${OUT}^{tree}`], { encoding: 'utf8' }).trim();

/** Whether the list on disk names exactly the shards of the rendered tree, each with the namespaces it holds. */
async function listIsTrueOf(dir: string): Promise<boolean> {
  const repo = await openRepo(dir);
  const tree = renderedTree(dir);
  const { shardOids } = (await readIndexOids(repo, tree))!;
  const index = (await openOutputIndex(repo, tree))!;
  await index.loadAll();
  const list = IndexNamespaceList.read(repo);
  return [...shardOids].every(([id, oid]) => {
    const listed = list.namespacesOf(oid);
    return listed !== undefined && [...listed].sort().join() === [...index.namespacesOfShard(id)!].sort().join();
  });
}

test("a namespace policy's change renders the same tree whether the namespace list is kept, missing, cut short or of another tree, and leaves it true of the new tree", async () => {
  const r = fleet();
  await sync(r.dir);
  assert.ok(await listIsTrueOf(r.dir), 'the cold render keeps the list of every shard it wrote');
  const firstList = readFileSync(LIST(r.dir), 'utf8');
  r.commit({ 'templates/team-3/c9.yaml': configMap('c9', 'v', 'team-3') }, 'one more ConfigMap');
  await sync(r.dir);
  assert.ok(await listIsTrueOf(r.dir), 'a sync keeps it for the tree it wrote');
  r.commit({ 'policies/team-3.yaml': configMapPolicy(['member2'], 'team-3') }, 'team-3 moves');

  const variants: Record<string, (dir: string) => void> = {
    kept: () => undefined,
    missing: (dir) => rmSync(LIST(dir)),
    'cut short': (dir) => writeFileSync(LIST(dir), readFileSync(LIST(dir), 'utf8').slice(0, 200)),
    'of another tree': (dir) => writeFileSync(LIST(dir), firstList),
  };
  const trees: Record<string, string> = {};
  for (const [name, spoil] of Object.entries(variants)) {
    const dir = path.join(path.dirname(r.dir), name.replace(' ', '-'));
    cpSync(r.dir, dir, { recursive: true });
    spoil(dir);
    const [report] = (await sync(dir)).reports;
    assert.equal(
      [...(report?.explanations.keys() ?? [])].sort(),
      [0, 1, 2, 3, 9].map((c) => `v1/ConfigMap/team-3/c${c}`),
      name,
    );
    trees[name] = renderedTree(dir);
    assert.ok(await listIsTrueOf(dir), `${name}: the list is true of the new tree`);
  }
  assert.is(new Set(Object.values(trees)).size, 1, JSON.stringify(trees));
  assert.match(r.git('--no-pager', 'log', '-1', '--format=%s', 'main'), /team-3 moves/);
});

test.run();
