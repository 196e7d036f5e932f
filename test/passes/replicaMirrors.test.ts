// Two replicas' mirrors of one remote (--leader-elect on an http(s) repo): the status branch both push is replayed
// when the remote moved, the rendered branch only the leader writes follows the remote.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commitStatusEdits } from '../../src/branches/status/commitStatusEdits.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { openRemoteMirror } from '../../src/passes/remoteMirror.ts';
import { makeFleet } from '../helpers/fleet.ts';
import { startGitHttpServer } from '../helpers/gitHttpServer.ts';

const STATUS = 'flotilla/status';
const RENDERED = 'flotilla/rendered';

test('replica mirrors: a status push refused because another replica pushed first is replayed and lands; both files kept', async () => {
  const fleet = await makeFleet();
  fleet.git(fleet.bare, 'config', 'http.receivepack', 'true');
  const server = await startGitHttpServer(path.dirname(fleet.bare));
  try {
    fleet.push({ 'README.md': 'fleet\n' }, 'base');
    const url = `${server.url}/repo.git`;
    const open = (name: string) =>
      openRemoteMirror({
        url,
        gitdir: path.join(fleet.root, name),
        sourceBranch: 'main',
        outputBranches: [RENDERED, STATUS],
        sharedBranches: [STATUS],
      });
    const [a, b] = [await open('a.git'), await open('b.git')];
    const write = async (gitdir: string, file: string) =>
      commitStatusEdits(await openRepo(gitdir), `refs/heads/${STATUS}`, [file], () => ({
        edits: new Map([[file, `${file}\n`]]),
        message: `status ${file}\n`,
        time: new Date(1_800_000_000_000),
      }));
    await write(a.gitdir, 'clusters/member1.yaml');
    await write(b.gitdir, 'clusters/member2.yaml');
    assert.equal((await a.pushOutputs()).pushed, [STATUS]);
    const second = await b.pushOutputs();
    assert.equal(second, { pushed: [STATUS], rejected: [] }, 'replayed onto what a pushed, then accepted');
    assert.equal(fleet.git(fleet.bare, 'ls-tree', '-r', '--name-only', STATUS).split('\n'), [
      'clusters/member1.yaml',
      'clusters/member2.yaml',
    ]);
    // a catches up with the remote before its next pass: nothing of its own unpushed, so it just moves.
    assert.equal(await a.syncOutputs(), { moved: [STATUS], replayed: [], dropped: [] });

    // The rendered branch is the leader's alone: a replica with its own diverged render drops it for the remote's.
    const render = async (gitdir: string, file: string) =>
      commitStatusEdits(await openRepo(gitdir), `refs/heads/${RENDERED}`, [file], () => ({
        edits: new Map([[file, 'x\n']]),
        message: `render ${file}\n`,
        time: new Date(1_800_000_000_000),
      }));
    await render(a.gitdir, 'one.yaml');
    assert.equal((await a.pushOutputs()).pushed, [RENDERED]);
    await render(b.gitdir, 'two.yaml');
    assert.equal(await b.syncOutputs(), { moved: [], replayed: [], dropped: [RENDERED] });
    assert.is(
      fleet.git(path.join(fleet.root, 'b.git'), 'rev-parse', RENDERED),
      fleet.git(fleet.bare, 'rev-parse', RENDERED),
    );
  } finally {
    await server.close();
    await fleet.cleanup();
  }
});

test.run();
