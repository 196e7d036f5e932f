// What a render reports it changed on each cluster: every file counted, the first paths kept (what the commit message
// and the CLI print), so a cold render of a large fleet does not keep millions of paths alive to say so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { LISTED_PATHS } from '../../src/outputs/outputMessage.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { baseFiles, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

test('a render counts every file it changed on a cluster and names the first of them, in its report and its commit', async () => {
  const r = makeConfigRepo();
  try {
    const many = LISTED_PATHS + 5;
    // many ConfigMaps and one Deployment, on member1 and member2
    r.commit(baseFiles(many), 'many files');
    const repo = await openRepo(r.dir);
    const { reports } = await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const member1 = reports[0]!.changes.member1!;
    assert.equal(member1.counts, { added: many + 1, changed: 0, removed: 0 });
    assert.is(member1.added.length, LISTED_PATHS);
    assert.ok(
      member1.added.every((p) => r.ls('flotilla/rendered').includes(p)),
      'the listed paths are files of the render',
    );
    const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
    assert.match(message, `member1: ${many + 1} added`);
    assert.match(message, `  + … and ${many + 1 - LISTED_PATHS} more`);
    assert.is(message.split('\n').filter((l) => l.startsWith('  + ')).length, 2 * (LISTED_PATHS + 1));
  } finally {
    r.cleanup();
  }
});

test.run();
