import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyTemplateChanges,
  INDEX_PATH,
  indexFiles,
  indexOfFolder,
  isIndexPath,
  shardOf,
  shardPath,
  ShardedIndex,
  viewOfWhole,
  type IndexEntry,
  type OutputIndex,
  type ShardNamespaces,
} from '../../src/branches/rendered/outputIndex.ts';

const WEB = 'apps/v1/Deployment/shop/web';
const CONFIG = 'v1/ConfigMap/shop/web-config';
const API = 'apps/v1/Deployment/shop/api';

function whole(): OutputIndex {
  return {
    files: {
      'templates/web.yaml': { templates: [WEB] },
      'templates/api.yaml': { templates: [API] },
      'templates/config.yaml': { templates: [CONFIG] },
      'policies/shop.yaml': { templates: [], karmada: true },
    },
    templates: {
      [WEB]: { file: 'templates/web.yaml', policy: 'p', clusters: ['m1'], deps: [CONFIG] },
      [API]: { file: 'templates/api.yaml', policy: 'p', clusters: ['m2'], deps: [CONFIG], evicting: ['m2'] },
      [CONFIG]: { file: 'templates/config.yaml', clusters: ['m1', 'm2'] },
    },
  };
}

/** A tree's index as the output branch holds it: path → text, read through the same reader a sync uses. */
function openFiles(
  files: ReadonlyMap<string, string | null>,
  reads: string[] = [],
  listed?: ShardNamespaces,
): ShardedIndex {
  const present = new Set<string>();
  for (const [p, text] of files)
    if (text !== null && p !== INDEX_PATH) present.add(p.slice('.flotilla/index/'.length, -'.json'.length));
  return ShardedIndex.open(
    files.get(INDEX_PATH) ?? undefined,
    present,
    async (ids) => {
      reads.push(...ids);
      return new Map(ids.map((id) => [id, files.get(shardPath(id))!]));
    },
    listed,
  );
}

test('a template entry lives in the shard of its key, a file entry in the shard of its path; the root summarises', () => {
  const files = indexFiles(whole());
  const written = [...files]
    .filter(([, t]) => t !== null)
    .map(([p]) => p)
    .sort();
  const expected = [
    INDEX_PATH,
    ...new Set([WEB, API, CONFIG, ...Object.keys(whole().files)].map((k) => shardPath(shardOf(k)))),
  ].sort();
  assert.equal(written, expected);
  assert.ok(written.every(isIndexPath));
  assert.not.ok(isIndexPath('.flotilla/released.json'));
  const root = JSON.parse(files.get(INDEX_PATH)!);
  assert.equal(root, {
    version: 2,
    sourceFiles: 4,
    karmadaFilesRule: 2,
    karmadaFiles: ['policies/shop.yaml'],
    evicting: [API],
  });
  assert.ok(files.get(shardPath(shardOf(WEB)))!.includes(`${JSON.stringify(WEB)}:`));
  assert.equal(indexOfFolder(new Map([...files].filter((e): e is [string, string] => e[1] !== null))), whole());
});

test('the root names, per kind, the files whose CRDs declare it cluster-scoped, following their entries, and only when there are some', async () => {
  const WIDGET = 'example.com/v1/Widget';
  const index = openFiles(indexFiles(whole()));
  await index.loadAll();
  index.setFile('crds/widgets.yaml', { templates: [], clusterScoped: [WIDGET] });
  index.setFile('chart/Chart.yaml', { templates: [], clusterScoped: [WIDGET, 'example.com/v2/Widget'] });
  assert.equal(index.clusterScopedKinds(), {
    [WIDGET]: ['chart/Chart.yaml', 'crds/widgets.yaml'],
    'example.com/v2/Widget': ['chart/Chart.yaml'],
  });
  assert.ok(index.derivedPartsAgree());
  const reads: string[] = [];
  const reopened = openFiles(new Map([[INDEX_PATH, (await index.edits()).get(INDEX_PATH)!]]), reads);
  assert.equal(reopened.clusterScopedKinds(), index.clusterScopedKinds());
  assert.equal(reads, [], 'kept in the root: no shard read');
  index.setFile('chart/Chart.yaml', { templates: [] });
  index.setFile('crds/widgets.yaml', undefined);
  assert.equal(index.clusterScopedKinds(), {});
  assert.equal(JSON.parse((await index.edits()).get(INDEX_PATH)!), {
    version: 2,
    sourceFiles: 5,
    karmadaFilesRule: 2,
    karmadaFiles: ['policies/shop.yaml'],
    evicting: [API],
  });
});

test('a lookup in a shard not read yet throws; load() reads only the shards asked for', async () => {
  const reads: string[] = [];
  const index = openFiles(indexFiles(whole()), reads);
  assert.equal(index.karmadaFiles(), ['policies/shop.yaml']);
  assert.is(index.sourceFileCount(), 4);
  assert.throws(() => index.template(WEB), /was used before it was read/);
  await index.load({ templates: [WEB] });
  assert.equal(reads, [shardOf(WEB)]);
  assert.is(index.template(WEB)?.file, 'templates/web.yaml');
  await index.load({ templates: [WEB] });
  assert.is(reads.length, 1, 'a shard is read once');
});

test("templatesIn gives a namespace's entries, read from the shards' lines without loading them (a namespaced policy's change)", async () => {
  const other = 'apps/v1/Deployment/billing/web';
  const odd = 'v1/ConfigMap/shop-2/shop'; // names the namespace "shop" in another place: not in it
  const fleet = whole();
  fleet.templates[other] = { file: 'templates/billing.yaml', clusters: ['m1'] };
  fleet.templates[odd] = { file: 'templates/odd.yaml', clusters: [] };
  const files = indexFiles(fleet);
  const reads: string[] = [];
  const index = openFiles(files, reads);
  await index.load({ templates: [WEB] }); // a loaded shard is answered from memory
  const found = await index.templatesIn(new Set(['shop']));
  assert.equal(found.map(([key]) => key).sort(), [API, WEB, CONFIG].sort());
  assert.equal(Object.fromEntries(found), {
    [WEB]: fleet.templates[WEB],
    [API]: fleet.templates[API],
    [CONFIG]: fleet.templates[CONFIG],
  });
  const notLoaded = [API, CONFIG, other].filter((key) => shardOf(key) !== shardOf(WEB));
  for (const key of notLoaded) assert.throws(() => index.template(key), /was used before it was read/);
  assert.equal(
    (await index.templatesIn(new Set(['billing']))).map(([key]) => key),
    [other],
  );
});

test('templatesIn reads only the shards the namespace list says may hold the namespaces, and learns the shards it does not know', async () => {
  const fleet = whole();
  // Enough namespaces that their templates fall in shards of their own.
  for (let i = 0; i < 40; i++) fleet.templates[`v1/ConfigMap/team-${i}/c`] = { file: `t/${i}.yaml`, clusters: ['m1'] };
  const files = indexFiles(fleet);
  const truth = openFiles(files);
  await truth.loadAll();
  const shards = [...files.keys()].filter((p) => p !== INDEX_PATH && files.get(p)).map((p) => p.slice(-7, -5));
  const namespacesOf = new Map(shards.map((id) => [id, truth.namespacesOfShard(id)!]));
  const wanted = new Set(['team-7', 'shop']);
  const expected = Object.entries(fleet.templates)
    .filter(([key]) => key.includes('/team-7/') || key.includes('/shop/'))
    .map(([key]) => key)
    .sort();

  // The list knows every shard but one: the others that hold neither namespace are not read; that one is, and learned.
  const unknown = shardOf('v1/ConfigMap/team-3/c');
  const learned: Map<string, ReadonlySet<string>>[] = [];
  const list: ShardNamespaces = {
    holdsAny: (id, namespaces) =>
      id === unknown ? undefined : [...namespaces].some((ns) => namespacesOf.get(id)?.has(ns)),
    learn: async (found) => void learned.push(new Map(found)),
  };
  const reads: string[] = [];
  const found = await openFiles(files, reads, list).templatesIn(wanted);
  assert.equal(found.map(([key]) => key).sort(), expected);
  assert.equal(Object.fromEntries(found), Object.fromEntries(expected.map((key) => [key, fleet.templates[key]])));
  const holding = shards.filter((id) => [...wanted].some((ns) => namespacesOf.get(id)!.has(ns)));
  assert.equal(reads.sort(), [...new Set([...holding, unknown])].sort());
  assert.ok(reads.length < shards.length / 2, `${reads.length} of ${shards.length} shards read`);
  assert.equal(learned, [new Map([[unknown, namespacesOf.get(unknown)]])]);

  // A list that knows nothing: every shard read, every one learned, the same entries.
  const all: Map<string, ReadonlySet<string>>[] = [];
  const none: ShardNamespaces = { holdsAny: () => undefined, learn: async (f) => void all.push(new Map(f)) };
  const again = await openFiles(files, [], none).templatesIn(wanted);
  assert.equal(again.map(([key]) => key).sort(), expected);
  assert.equal(all, [namespacesOf]);
});

test("who requires a template follows its parents' deps as they are set and removed", async () => {
  const index = openFiles(indexFiles(whole()));
  await index.loadAll();
  assert.equal(index.parentsOf(CONFIG), [API, WEB]);
  const { deps: _deps, ...noDeps } = index.template(WEB)!;
  index.setTemplate(WEB, noDeps);
  assert.equal(index.parentsOf(CONFIG), [API]);
  index.setTemplate(API, undefined);
  assert.equal(index.parentsOf(CONFIG), []);
  assert.equal(index.evictingTemplates(), []);
  index.setTemplate(WEB, { ...noDeps, deps: [CONFIG], evicting: ['m1'] });
  assert.equal(index.parentsOf(CONFIG), [WEB]);
  assert.equal(index.evictingTemplates(), [WEB]);
  assert.ok(index.derivedPartsAgree());
});

test("the root's lists stay sorted as entries join and leave them in any order, and a list held before keeps its keys", async () => {
  const index = openFiles(indexFiles({ files: {}, templates: {} }));
  await index.loadAll();
  const keys = Array.from({ length: 40 }, (_, i) => `apps/v1/Deployment/ns-${(i * 17) % 40}/app-${i}`);
  const entry = (key: string, evicting: boolean): IndexEntry => ({
    file: `templates/${key}.yaml`,
    clusters: ['m1'],
    ...(evicting ? { evicting: ['m1'] } : {}),
    ...(key.endsWith('3') ? { blocked: true as const } : {}),
  });
  for (const key of keys) index.setTemplate(key, entry(key, true));
  const all = index.evictingTemplates();
  assert.equal(all, [...keys].sort());
  assert.equal(index.blockedTemplates(), keys.filter((k) => k.endsWith('3')).sort());
  // Every third key leaves the list, another is set again unchanged, and one leaves the index.
  for (const key of keys.filter((_, i) => i % 3 === 0)) index.setTemplate(key, entry(key, false));
  index.setTemplate(keys[1]!, entry(keys[1]!, true));
  index.setTemplate(keys[2]!, undefined);
  assert.equal(index.evictingTemplates(), keys.filter((_, i) => i % 3 !== 0 && i !== 2).sort());
  assert.equal(all, [...keys].sort(), 'the list read before is not changed under its holder');
  assert.ok(index.derivedPartsAgree());
});

test('edits() rewrites only the shards a change touched, removes a shard left empty, and the root only when it changed', async () => {
  const before = indexFiles(whole());
  const index = openFiles(before);
  await index.load({ templates: [WEB] });
  index.setTemplate(WEB, { ...index.template(WEB)!, clusters: ['m1', 'm3'] });
  const edits = await index.edits();
  assert.equal([...edits.keys()], [shardPath(shardOf(WEB))]);
  const after = new Map(before);
  for (const [p, t] of edits) after.set(p, t);
  const reopened = openFiles(after);
  await reopened.loadAll();
  assert.equal(reopened.template(WEB)?.clusters, ['m1', 'm3']);
  assert.equal(reopened.toWhole().templates[API], whole().templates[API]);

  // Removing the only file of its shard: the shard goes, and the root counts one file less.
  const alone = openFiles(before);
  const path = 'policies/shop.yaml';
  await alone.load({ files: [path] });
  const shardHasOthers =
    Object.keys(whole().files).some((f) => f !== path && shardOf(f) === shardOf(path)) ||
    Object.keys(whole().templates).some((k) => shardOf(k) === shardOf(path));
  alone.setFile(path, undefined);
  const removed = await alone.edits();
  assert.is(removed.has(shardPath(shardOf(path))), true);
  if (!shardHasOthers) assert.is(removed.get(shardPath(shardOf(path))), null);
  assert.equal(JSON.parse(removed.get(INDEX_PATH)!), {
    version: 2,
    sourceFiles: 3,
    karmadaFilesRule: 2,
    karmadaFiles: [],
    evicting: [API],
  });
});

test('a shard written again after a change has the bytes of the whole index serialised anew; an entry not asked for is not even parsed', async () => {
  const fleet = whole();
  for (let i = 0; i < 300; i++)
    fleet.templates[`v1/ConfigMap/team-${i % 7}/c${i}`] = {
      file: `t/${i}.yaml`,
      clusters: [`m${i % 3}`],
      deps: [CONFIG],
    };
  const before = indexFiles(fleet);
  const index = openFiles(before);
  await index.load({ templates: [WEB, API] });
  await index.load({ templates: [CONFIG] });
  const changed = { ...fleet.templates[WEB]!, clusters: ['m1', 'm9'] };
  index.setTemplate(WEB, changed);
  index.setTemplate(API, undefined);
  const expected = indexFiles({
    files: fleet.files,
    templates: Object.fromEntries(
      Object.entries({ ...fleet.templates, [WEB]: changed }).filter(([key]) => key !== API),
    ),
  });
  const edits = await index.edits();
  for (const [path, text] of edits) assert.is(text, expected.get(path), path);
  assert.ok(edits.size >= 2);

  // A shard one of whose lines no JSON parser takes: read for another entry and written again, that line untouched.
  const configMaps = Object.keys(fleet.templates).filter((key) => key.startsWith('v1/ConfigMap/team-'));
  const asked = configMaps[0]!;
  const sibling = configMaps.find((key) => key !== asked && shardOf(key) === shardOf(asked))!;
  const path = shardPath(shardOf(asked));
  const text = before.get(path)!;
  const line = text.split(',\n').find((l) => l.startsWith(`${JSON.stringify(sibling)}:`))!;
  const garbled = line.replace('"clusters":', '"clusters":;');
  const lazy = openFiles(new Map([...before, [path, text.replace(line, garbled)]]));
  await lazy.load({ templates: [asked] });
  lazy.setTemplate(asked, { ...fleet.templates[asked]!, clusters: ['m9'] });
  assert.ok((await lazy.edits()).get(path)!.includes(garbled));
});

test('an entry read and not set is written as the line it was read from, and is read-only to whoever read it', async () => {
  const fleet = whole();
  for (let i = 0; i < 300; i++)
    fleet.templates[`v1/ConfigMap/team-${i % 7}/c${i}`] = { file: `t/${i}.yaml`, clusters: ['m1'] };
  const before = indexFiles(fleet);
  const keys = Object.keys(fleet.templates).filter((key) => key.startsWith('v1/ConfigMap/team-'));
  const read = keys[0]!;
  const changed = keys.find((key) => key !== read && shardOf(key) === shardOf(read))!;
  const path = shardPath(shardOf(read));
  const text = before.get(path)!;
  // The same value as JSON.stringify would not write it: parsed alike, written otherwise.
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${JSON.stringify(read)}:`))!
    .replace(/,$/, '');
  const spaced = line.replace('"clusters":', '"clusters": ');
  const index = openFiles(new Map([...before, [path, text.replace(line, spaced)]]));
  await index.loadAll(); // every entry read, as a cluster's change reads them
  const entry = index.template(read)!;
  assert.equal(entry, fleet.templates[read]);
  assert.throws(() => entry.clusters.push('m9'), TypeError);
  index.setTemplate(changed, { ...fleet.templates[changed]!, clusters: ['m9'] });
  const written = (await index.edits()).get(path)!;
  assert.ok(written.includes(spaced), 'the entry read is its line as it was');
  assert.ok(
    written.includes(
      `${JSON.stringify(changed)}:${JSON.stringify({ file: fleet.templates[changed]!.file, clusters: ['m9'] })}`,
    ),
  );
});

test('entries set again to equal copies (a sync that renders a template to the same result) write nothing', async () => {
  const index = openFiles(indexFiles(whole()));
  await index.loadAll();
  for (const [key, entry] of index.templates()) index.setTemplate(key, structuredClone(entry));
  for (const [path, entry] of index.files()) index.setFile(path, structuredClone(entry));
  assert.equal([...(await index.edits()).keys()], []);
  // A real change still writes its shard, and the root when what it sums moves.
  index.setFile('templates/web.yaml', { templates: [WEB], karmada: true });
  assert.equal([...(await index.edits()).keys()].sort(), [INDEX_PATH, shardPath(shardOf('templates/web.yaml'))].sort());
});

test("a lookup in a shard read but not changed parses its entry's line only, and answers what the whole shard does", async () => {
  const files = indexFiles(whole());
  const lazy = openFiles(files);
  const parsed = openFiles(files);
  await parsed.loadAll();
  const keys = [WEB, API, CONFIG, 'apps/v1/Deployment/shop/absent'];
  const paths = [...Object.keys(whole().files), 'templates/absent.yaml'];
  await lazy.load({ templates: keys, files: paths });
  for (const key of keys) {
    assert.equal(lazy.template(key), parsed.template(key), key);
    assert.equal(lazy.parentsOf(key), parsed.parentsOf(key), `parents of ${key}`);
  }
  for (const path of paths) assert.equal(lazy.file(path), parsed.file(path), path);
  const id = shardOf(WEB);
  const text = files.get(shardPath(id))!;
  // A shard laid out otherwise (pretty-printed by hand) is parsed whole, and answers the same.
  const pretty = new Map(files);
  pretty.set(shardPath(id), `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  const other = openFiles(pretty);
  await other.load({ templates: [WEB] });
  assert.equal(other.template(WEB), whole().templates[WEB]);
});

test('edits after lookups in unparsed shards are those of a parsed index', async () => {
  const files = indexFiles(whole());
  const lazy = openFiles(files);
  const parsed = openFiles(files);
  await parsed.loadAll();
  await lazy.load({ templates: [WEB, API, CONFIG] });
  for (const index of [lazy, parsed]) {
    index.template(WEB);
    index.setTemplate(API, { ...index.template(API)!, deps: [], evicting: [] });
    index.setTemplate(WEB, structuredClone(index.template(WEB)));
  }
  assert.equal(await lazy.edits(), await parsed.edits());
  assert.ok((await lazy.edits()).has(shardPath(shardOf(API))));
});

test('a version 1 index (one file) is read whole, and its first edits write version 2 with every shard', async () => {
  const v1 = `${JSON.stringify({ version: 1, ...whole() })}\n`;
  const index = openFiles(new Map([[INDEX_PATH, v1]]));
  assert.is(index.template(WEB)?.file, 'templates/web.yaml', 'no shard to wait for');
  assert.equal(index.parentsOf(CONFIG), [API, WEB]);
  const edits = await index.edits();
  // Its entries' Karmada flags are an older Flotilla's: the root does not claim the current rule for them.
  assert.not.ok(index.karmadaFilesByCurrentRule());
  const written = new Map([...indexFiles(whole())].filter((e): e is [string, string] => e[1] !== null));
  written.set(INDEX_PATH, written.get(INDEX_PATH)!.replace(',"karmadaFilesRule":2', ''));
  assert.equal(edits, written);
  assert.throws(
    () => openFiles(new Map([[INDEX_PATH, '{"version":3}']])),
    /version 3; this Flotilla reads versions 1 and 2/,
  );
});

test('a root written before the Karmada files rule reads as an older rule, still agrees with its entries, and records the rule once set', async () => {
  const files = indexFiles(whole());
  assert.ok(openFiles(files).karmadaFilesByCurrentRule());
  const older = new Map(files).set(INDEX_PATH, files.get(INDEX_PATH)!.replace(',"karmadaFilesRule":2', ''));
  assert.not.equal(older.get(INDEX_PATH), files.get(INDEX_PATH), 'the fixture really changed');
  const index = openFiles(older);
  assert.not.ok(index.karmadaFilesByCurrentRule());
  await index.loadAll();
  assert.ok(index.derivedPartsAgree(), 'the rule is no part derived from the entries');
  assert.equal(await index.edits(), new Map(), 'nothing changed: the root stays as read');
  index.setKarmadaFilesByCurrentRule();
  assert.ok(index.karmadaFilesByCurrentRule());
  assert.equal(await index.edits(), new Map([[INDEX_PATH, files.get(INDEX_PATH)!]]));
});

test('filesWhere gives the file entries whose lines may matter, and those set since their shard was read', async () => {
  const index = openFiles(indexFiles(whole()));
  await index.loadAll();
  const crd = 'apiextensions.k8s.io/v1/CustomResourceDefinition//widgets.example.com';
  index.setFile('crds/widgets.yaml', { templates: [crd] });
  const paths = index
    .filesWhere((line) => line.includes('"policies/'))
    .map(([path]) => path)
    .sort();
  assert.equal(paths, ['crds/widgets.yaml', 'policies/shop.yaml']);
  assert.equal(
    index.filesWhere(() => false).map(([path]) => path),
    ['crds/widgets.yaml'],
  );
});

test('replacing an index removes every shard of the old one that stays empty', async () => {
  const old = openFiles(indexFiles(whole()));
  const fresh = ShardedIndex.replacing(old);
  fresh.setTemplate(WEB, { file: 'templates/web.yaml', clusters: [] });
  const edits = await fresh.edits();
  const writes = [...edits]
    .filter(([, t]) => t !== null)
    .map(([p]) => p)
    .sort();
  assert.equal(writes, [INDEX_PATH, shardPath(shardOf(WEB))].sort());
  const oldShards = [...indexFiles(whole())]
    .filter(([p, t]) => t !== null && p !== INDEX_PATH && p !== shardPath(shardOf(WEB)))
    .map(([p]) => p);
  for (const p of oldShards) assert.is(edits.get(p), null, p);
});

test("verify's check: derived parts that disagree with the entries are caught", async () => {
  const files = indexFiles(whole());
  const shard = shardPath(shardOf(CONFIG));
  const tampered = new Map(files).set(shard, files.get(shard)!.replace(`${JSON.stringify(API)},`, ''));
  assert.ok(tampered.get(shard) !== files.get(shard), 'the fixture really changed');
  const index = openFiles(tampered);
  await index.loadAll();
  assert.not.ok(index.derivedPartsAgree());
});

test('the snapshot helpers: a whole index as a view, and changes laid over it', () => {
  const view = viewOfWhole(whole());
  assert.equal(view.parentsOf(CONFIG), [API, WEB]);
  assert.is(view.template(WEB)?.policy, 'p');
  const moved: IndexEntry = { file: 'templates/web.yaml', clusters: ['m9'] };
  const next = applyTemplateChanges(
    whole(),
    new Map([
      [WEB, moved],
      [API, null],
    ]),
  );
  assert.equal(Object.keys(next.templates).sort(), [CONFIG, WEB].sort());
  assert.is(next.templates[WEB], moved);
  assert.equal(next.files, whole().files);
  assert.is(whole().templates[API]?.policy, 'p', 'the whole index it started from is left as it was');
});

test.run();
