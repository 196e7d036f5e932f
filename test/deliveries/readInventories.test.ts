// A hand edit that breaks an inventory on the status branch fails every pass: the error must say which file, and how
// to get it back, instead of a bare JSON parser message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readInventories } from '../../src/branches/status/readInventories.ts';
import { parseInventoryFile, serializeInventory } from '../../src/branches/status/inventory.ts';
import { makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

const STATUS = 'refs/heads/flotilla/status';
const PATH = 'inventories/member1.json';
const good = serializeInventory([{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' }]);

/** A status branch whose inventory was good in its first commit and is `edited` in its second. */
const statusBranchEdited = (edited: string): ConfigRepo => {
  const config = makeConfigRepo();
  config.git('checkout', '-q', '--orphan', 'flotilla/status');
  config.commit({ [PATH]: good }, 'Status of member1');
  config.commit({ [PATH]: edited }, 'hand edit');
  return config;
};

const readError = async (config: ConfigRepo): Promise<string> => {
  try {
    await readInventories(await openRepo(config.dir), STATUS, ['member1']);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('readInventories accepted the edited inventory');
};

test('a corrupt inventory names the branch and path and how to restore it, and the restore command gives a good file', async () => {
  const config = statusBranchEdited(good.replace('"objects"', 'objects'));
  try {
    const message = await readError(config);
    assert.ok(message.startsWith(`flotilla/status:${PATH}: `), message);
    assert.match(message, /JSON/, 'the parser message is kept');
    assert.ok(
      message.endsWith(
        `; fix: restore it from the previous commit of flotilla/status (git show flotilla/status~1:${PATH}) and push`,
      ),
      message,
    );
    const restored = config.git('show', `flotilla/status~1:${PATH}`);
    assert.equal(
      parseInventoryFile(restored).objects.map((r) => r.name),
      ['settings'],
      'the command in the fix shows the last good file',
    );
  } finally {
    config.cleanup();
  }
});

test('an inventory from a newer Flotilla names the file and keeps its own fix: restoring an old copy would lose records', async () => {
  const config = statusBranchEdited(good.replace('"version":1', '"version":2'));
  try {
    const message = await readError(config);
    assert.is(
      message,
      `flotilla/status:${PATH}: inventory has version 2; this Flotilla reads version 1; fix: run a Flotilla that reads it (the version that wrote it, or newer)`,
    );
  } finally {
    config.cleanup();
  }
});

test.run();
