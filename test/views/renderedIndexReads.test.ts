// A read view asks the rendered index only what its question needs: one object's entry reads the shard that holds it,
// the Karmada files come from the root, and only a listing of every template parses every entry.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refKey } from '../../src/api/kinds.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readFleet } from '../../src/views/readFleet.ts';
import { countedReads } from '../helpers/countedReads.ts';
import { clusterYaml, configMap, configMapPolicy, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const COUNT = 600; // more templates than shards: every shard holds some

test("one object's entry reads its shard, the Karmada files the root; every entry is parsed only for a listing", async () => {
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'policies/configmaps.yaml': configMapPolicy(['member1']),
  };
  for (let i = 0; i < COUNT; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  const repo = makeConfigRepoWith(repos, files, 'many ConfigMaps');
  await syncRepo(await openRepo(repo.dir), {
    sourceRef: 'refs/heads/main',
    outputRef: 'refs/heads/flotilla/rendered',
  });

  const packed = countedReads((file) => file.endsWith('.pack'));
  const fleet = await readFleet(await openRepo(repo.dir, packed.fs), {
    rev: 'main',
    renderedRef: 'refs/heads/flotilla/rendered',
    statusRef: 'refs/heads/flotilla/status',
  });
  const index = fleet.rendered!.index;
  const key = refKey({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm-7' });

  packed.reset();
  assert.equal(await index.karmadaFiles(), ['clusters/member1.yaml', 'policies/configmaps.yaml']);
  const root = packed.bytes;
  const one = await index.entriesOf([key]);
  const shard = packed.bytes - root;
  assert.equal(one.get(key)?.clusters, ['member1']);
  assert.is(one.size, 1);

  packed.reset();
  const keys = await index.templateKeys();
  const everyShard = packed.bytes;
  assert.is(keys.filter((k) => k.includes('/ConfigMap/default/cm-')).length, COUNT);
  // A shard is one object of the pack, the root another: reading all 256 costs far more than either.
  assert.ok(shard * 50 < everyShard, `one entry read ${shard} bytes, every key ${everyShard}`);
  assert.ok(root * 50 < everyShard, `the root read ${root} bytes, every key ${everyShard}`);

  // The whole index parses what the keys and the shard read, and agrees with them.
  const whole = await index.whole();
  assert.is(Object.keys(whole.templates).length, keys.length);
  assert.equal(whole.templates[key], one.get(key));
  assert.is(await index.whole(), whole, 'read once, kept');
});

test.run();
