import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexKindList, kindsOfKeys } from '../../src/branches/rendered/indexKindList.ts';
import { readIndexOids } from '../../src/branches/rendered/readOutputIndex.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { customResourceDefinitions, readFleet } from '../../src/views/readFleet.ts';
import { countedReads } from '../helpers/countedReads.ts';
import { clusterYaml, configMap, configMapPolicy, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const LIST = (dir: string) => path.join(dir, '.git', 'flotilla-index-kinds.json');
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const oid = (n: number) => n.toString(16).padStart(40, '0');

test("a template key's kind is told from its text, each kind once in the order of the keys", () => {
  assert.equal(
    kindsOfKeys([
      'apps/v1/Deployment/shop/web',
      'v1/ConfigMap/shop/web-config',
      'apps/v1/Deployment/billing/api',
      'apiextensions.k8s.io/v1/CustomResourceDefinition//widgets.example.com',
      'example.com/v1beta1/Widget//cluster-wide',
    ]),
    [
      'apps/v1/Deployment',
      'v1/ConfigMap',
      'apiextensions.k8s.io/v1/CustomResourceDefinition',
      'example.com/v1beta1/Widget',
    ],
  );
});

test('the list keeps one tree’s shards by blob oid, and a list cut short or of another format is no list', () => {
  const list = IndexKindList.parse('{"format":1,"shards":{}}')!;
  list.set(oid(1), ['apps/v1/Deployment', 'v1/ConfigMap']);
  list.set(oid(2), []);
  const text = list.textFor([oid(1), oid(2), oid(3)]);
  const read = IndexKindList.parse(text)!;
  assert.equal(read.kindsOf(oid(1)), ['apps/v1/Deployment', 'v1/ConfigMap']);
  assert.equal(read.kindsOf(oid(2)), []);
  assert.is(read.kindsOf(oid(3)), undefined, 'a shard it was not told of');
  assert.is(IndexKindList.parse(read.textFor([oid(2)]))!.kindsOf(oid(1)), undefined, "another tree's shard goes");
  for (let cut = 0; cut < text.length - 2; cut += 5) assert.is(IndexKindList.parse(text.slice(0, cut)), undefined);
  assert.is(IndexKindList.parse(text.replace('"format":1', '"format":2')), undefined);
  assert.is(IndexKindList.parse(`{"format":1,"shards":{"${oid(1)}":["Deployment"]}}`), undefined, 'no apiVersion');
  assert.is(IndexKindList.parse(`{"format":1,"shards":{"abc":[]}}`), undefined, 'no blob oid');
});

test('the kinds and CRDs of a fleet are read from every shard once, then from the list; a shard a sync rewrote is read again', async () => {
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'policies/configmaps.yaml': configMapPolicy(['member1']),
  };
  for (let i = 0; i < 300; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  const repo = makeConfigRepoWith(repos, files, 'many ConfigMaps');
  const sync = async () =>
    syncRepo(await openRepo(repo.dir), { sourceRef: 'refs/heads/main', outputRef: OUT, statusRef: 'refs/heads/none' });
  await sync();
  const packed = countedReads((file) => file.endsWith('.pack'));
  const open = async () =>
    (
      await readFleet(await openRepo(repo.dir, packed.fs), {
        rev: 'main',
        renderedRef: OUT,
        statusRef: 'refs/heads/flotilla/status',
      })
    ).rendered!.index;

  rmSync(LIST(repo.dir), { force: true });
  let index = await open();
  packed.reset();
  assert.equal(await index.kinds(), [{ apiVersion: 'v1', kind: 'ConfigMap' }]);
  const everyShard = packed.bytes;
  assert.equal(await customResourceDefinitions(index), []);
  const head = (await readFleet(await openRepo(repo.dir), { rev: 'main', renderedRef: OUT, statusRef: 'refs/heads/x' }))
    .rendered!;
  const shards = (await readIndexOids(await openRepo(repo.dir), head.commit.tree))!;
  const saved = JSON.parse(readFileSync(LIST(repo.dir), 'utf8')) as { shards: Record<string, string[]> };
  assert.is(Object.keys(saved.shards).length, shards.shardOids.size, 'every shard of the tree learned');

  // A new process: the kinds and the CRDs come from the list, no shard is read for them.
  index = await open();
  packed.reset();
  assert.equal(await index.kinds(), [{ apiVersion: 'v1', kind: 'ConfigMap' }]);
  assert.equal(await customResourceDefinitions(index), []);
  assert.is(packed.bytes * 20 < everyShard, true, `${packed.bytes} bytes read, ${everyShard} for every shard`);

  // A CRD added: the sync rewrites some shards, which are read and learned; the CRD is found in its shard.
  repo.commit(
    {
      'templates/crd.yaml':
        'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets, singular: widget}\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}\n',
    },
    'a CRD',
  );
  await sync();
  index = await open();
  packed.reset();
  assert.equal(
    (await customResourceDefinitions(index)).map((c) => c.ref.name),
    ['widgets.example.com'],
  );
  assert.ok(packed.bytes * 20 < everyShard, `${packed.bytes} bytes read after the sync, ${everyShard} for every shard`);
  assert.equal((await index.kinds()).map((k) => `${k.apiVersion}/${k.kind}`).sort(), [
    'apiextensions.k8s.io/v1/CustomResourceDefinition',
    'v1/ConfigMap',
  ]);
  writeFileSync(LIST(repo.dir), 'not a list');
  assert.equal((await (await open()).kinds()).length, 2, 'a broken list is read past, as none');
});

test.run();
