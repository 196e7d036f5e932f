import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TreeEdits } from '../../src/commits/TreeEdits.ts';

/** A small deterministic generator: the same sequence of operations on every run. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PATHS = [
  'a',
  'a.b',
  'a0',
  'b/c',
  'b/d',
  'b/c2/e',
  'clusters/member1/default/deployment.apps_web.yaml',
  'clusters/member1/default/service_web.yaml',
  'clusters/member2/default/deployment.apps_web.yaml',
  'bindings/default/web-deployment.yaml',
  '.flotilla/index/00.json',
  'é/ü.yaml',
  '/x',
  'x',
  '//x',
  'a//b',
  'a/',
  '',
];

test('answers every question a Map answers, in the order a Map keeps, through sets, overwrites and deletes', () => {
  const random = lcg(7);
  const edits = new TreeEdits<number | null>();
  const map = new Map<string, number | null>();
  for (let step = 0; step < 2_000; step++) {
    const path = PATHS[Math.floor(random() * PATHS.length)]!;
    const roll = random();
    if (roll < 0.6) {
      const value = roll < 0.1 ? null : step;
      assert.is(edits.set(path, value), edits);
      map.set(path, value);
    } else if (roll < 0.75) assert.is(edits.delete(path), map.delete(path), `delete ${path}`);
    else if (roll < 0.76) {
      edits.clear();
      map.clear();
    }
    assert.is(edits.size, map.size);
    assert.is(edits.get(path), map.get(path));
    assert.is(edits.has(path), map.has(path));
  }
  assert.equal([...edits], [...map]);
  assert.equal([...edits.keys()], [...map.keys()]);
  assert.equal([...edits.values()], [...map.values()]);
  const seen: [string, number | null][] = [];
  edits.forEach((value, path) => seen.push([path, value]));
  assert.equal(seen, [...map.entries()]);
});

test('a path never set is absent, whether its folder exists or not', () => {
  const edits = new TreeEdits<string>();
  edits.set('clusters/member1/default/web.yaml', 'x');
  assert.is(edits.has('clusters/member1/default/other.yaml'), false);
  assert.is(edits.get('clusters/member9/default/web.yaml'), undefined);
  assert.is(edits.has('clusters/member1/default'), false, 'a folder is not a file');
  assert.is(edits.delete('nowhere/web.yaml'), false);
  assert.is(edits.size, 1);
});

test('the folders are laid out as the paths say, files and subfolders apart', () => {
  const edits = new TreeEdits<string>();
  edits.set('clusters/member1/default/web.yaml', 'w');
  edits.set('clusters/member1/default/db.yaml', 'd');
  edits.set('clusters/member2/default/web.yaml', 'w2');
  edits.set('README.md', 'r');
  const { root } = edits;
  assert.equal([...root.files], [['README.md', 'r']]);
  assert.equal([...root.dirs.keys()], ['clusters']);
  const member1 = root.dirs.get('clusters')!.dirs.get('member1')!.dirs.get('default')!;
  assert.equal(
    [...member1.files],
    [
      ['web.yaml', 'w'],
      ['db.yaml', 'd'],
    ],
  );
  assert.is(member1.dirs.size, 0);
});

test('changes made while iterating are seen as a Map sees them: deleted entries are not visited, clear ends it', () => {
  const paths = ['x/a', 'x/b', 'y/c', 'y/d'];
  const edits = new TreeEdits<number>();
  const map = new Map<string, number>();
  paths.forEach((path, i) => {
    edits.set(path, i);
    map.set(path, i);
  });
  const visit = (m: Map<string, number>) => {
    const seen: string[] = [];
    for (const [path] of m) {
      seen.push(path);
      if (path === 'x/a') m.delete('y/c');
      if (path === 'x/b') m.set('z/e', 9);
    }
    return seen;
  };
  assert.equal(visit(edits), visit(map));
  const cleared = (m: Map<string, number>) => {
    const seen: string[] = [];
    for (const [path] of m) {
      seen.push(path);
      if (path === 'x/a') {
        m.clear();
        m.set('w/after', 1);
      }
    }
    return seen;
  };
  assert.equal(cleared(edits), cleared(map));
  assert.equal(cleared(edits), ['w/after']);
});

test('a folder left empty by deletes is gone: a file may then take its name', () => {
  const edits = new TreeEdits<string>();
  edits.set('a/b/c', 'deep');
  edits.delete('a/b/c');
  edits.set('a', 'file');
  assert.equal([...edits.root.files], [['a', 'file']]);
  assert.is(edits.root.dirs.size, 0);
});

test('names outside ASCII, astral and lone surrogates included, are found again by the path they came in', () => {
  const edits = new TreeEdits<number>();
  const names = ['é/ü-long-name-here.yaml', '\u{1F680}-a-rocket-name.yaml', 'bad-\uD800-lone-surrogate.yaml'];
  names.forEach((path, i) => edits.set(path, i));
  names.forEach((path, i) => assert.is(edits.get(path), i, path));
  assert.equal([...edits.keys()], names);
});

test('many paths keep their order across blocks of the order', () => {
  const edits = new TreeEdits<number>();
  const paths = Array.from({ length: 20_000 }, (_, i) => `clusters/m${i % 7}/ns${i % 13}/f${i}.yaml`);
  paths.forEach((path, i) => edits.set(path, i));
  assert.equal([...edits.keys()], paths);
  assert.is(edits.delete(paths[10_000]!), true);
  edits.set(paths[10_000]!, -1);
  const keys = [...edits.keys()];
  assert.is(keys.length, 20_000);
  assert.is(keys.at(-1), paths[10_000]);
  assert.is(keys[10_000], paths[10_001]);
});

test.run();
