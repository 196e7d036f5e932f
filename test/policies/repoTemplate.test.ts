import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { makeConfigRepo } from '../helpers/fleet.ts';

const TEMPLATE = path.resolve(import.meta.dirname, '../../repo-template');

test('repo-template validates cleanly and renders the nginx walkthrough onto member1 and member2', async () => {
  const r = makeConfigRepo();
  try {
    for (const entry of readdirSync(TEMPLATE))
      cpSync(path.join(TEMPLATE, entry), path.join(r.dir, entry), { recursive: true });
    r.commit({}, 'from repo-template');
    const { model, output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(model.problems, []);
    assert.equal([...model.clusters.keys()].sort(), ['member1', 'member2', 'member3']);
    const written = [...output.edits.keys()].filter((p) => p.startsWith('clusters/')).sort();
    assert.equal(written, [
      'clusters/member1/default/deployment.apps_nginx.yaml',
      'clusters/member2/default/deployment.apps_nginx.yaml',
    ]);
  } finally {
    r.cleanup();
  }
});

test.run();
