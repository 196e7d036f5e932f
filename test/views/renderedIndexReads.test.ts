// A read view asks the rendered index only what its question needs: one object's entry reads the shard that holds it,
// the Karmada files come from the root, and only a listing of every template parses every entry.
import nodeFs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refKey } from '../../src/api/kinds.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { readFleet } from '../../src/views/readFleet.ts';
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

  let packBytes = 0;
  const packs = new Set<number>();
  const counting = {
    ...nodeFs,
    readSync: (...args: Parameters<typeof nodeFs.readSync>) => {
      const n = (nodeFs.readSync as (...a: unknown[]) => number)(...args);
      if (packs.has(args[0] as number)) packBytes += n;
      return n;
    },
    openSync: (...args: Parameters<typeof nodeFs.openSync>) => {
      const fd = (nodeFs.openSync as (...a: unknown[]) => number)(...args);
      if (String(args[0]).endsWith('.pack')) packs.add(fd);
      return fd;
    },
  } as typeof nodeFs;
  const fleet = await readFleet(await openRepo(repo.dir, counting), {
    rev: 'main',
    renderedRef: 'refs/heads/flotilla/rendered',
    statusRef: 'refs/heads/flotilla/status',
  });
  const index = fleet.rendered!.index;
  const key = refKey({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cm-7' });

  packBytes = 0;
  assert.equal(await index.karmadaFiles(), ['clusters/member1.yaml', 'policies/configmaps.yaml']);
  const root = packBytes;
  const one = await index.entriesOf([key]);
  const shard = packBytes - root;
  assert.equal(one.get(key)?.clusters, ['member1']);
  assert.is(one.size, 1);

  packBytes = 0;
  const keys = await index.templateKeys();
  const everyShard = packBytes;
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
