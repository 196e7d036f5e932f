// karmadactl's cluster verbs, case by case, on Flotilla's `taint`, `join` and `unjoin` (cases after
// pkg/karmadactl/taint/taint_test.go, join/join_test.go and unjoin/unjoin_test.go at f8fdd02).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { clusterCommand } from '../../src/commands/clusterCommand.ts';
import type { ClusterOperation } from '../../src/commands/clusterOperations.ts';
import { UsageError } from '../../src/errors/UsageError.ts';
import { editClusterFile } from '../../src/registrations/editClusterFile.ts';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';
import { RegistrationError } from '../../src/registrations/RegistrationError.ts';
import { commitAll, makeNginxRepo, writeWorkTree, type TempRepo } from '../plans/helpers/nginxRepo.ts';

const cleanups: (() => void)[] = [];
test.after.each(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A Cluster holding the one taint foo=bar:NoSchedule, as TestReorganizeTaints starts from. */
const TAINTED = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
spec:
  syncMode: Push
  taints:
    - key: foo
      value: bar
      effect: NoSchedule
`;
const now = new Date('2026-01-02T03:04:05Z');

function taint(words: string[], text = TAINTED, overwrite = false) {
  return editClusterFile('clusters/member1.yaml', text, 'member1', {
    type: 'taint',
    changes: parseTaintArgs(words),
    overwrite,
    now,
  });
}

function taintsOf(text: string | null): { key: string; value?: string; effect: string }[] | undefined {
  return (parse(text!) as { spec: { taints?: { key: string; value?: string; effect: string }[] } }).spec.taints;
}

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

function refusedWith(run: () => unknown, code: string, message?: RegExp): void {
  const err = refusal(run);
  assert.instance(err, RegistrationError, `expected ${code}, got no error`);
  assert.is((err as RegistrationError).code, code);
  if (message) assert.match((err as Error).message, message);
}

async function command(op: ClusterOperation, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await clusterCommand(op, args, {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    env: { GIT_AUTHOR_NAME: 'Olga Ops', GIT_AUTHOR_EMAIL: 'olga@example.com' },
    now: () => now,
  });
  return { code, out, err };
}

async function usageError(op: ClusterOperation, args: string[], message: RegExp): Promise<void> {
  let thrown: unknown;
  try {
    await command(op, args);
  } catch (err) {
    thrown = err;
  }
  assert.instance(thrown, UsageError, `${op} ${args.join(' ')} was not a usage error`);
  assert.match((thrown as Error).message, message);
}

function nginx(): TempRepo {
  const { repo } = makeNginxRepo();
  cleanups.push(() => repo.cleanup());
  return repo;
}

// taint_test.go TestValidate "both modify and remove the following taint(s) in the same command": karmadactl's
// Validate refuses a taint both added and removed (by key and effect, or by key alone) in one command.
test('a taint both added and removed in one command is refused', () => {
  for (const words of [
    ['dedicated=gpu:NoSchedule', 'dedicated:NoSchedule-'],
    ['dedicated=gpu:NoSchedule', 'dedicated-'],
  ]) {
    const err = refusal(() => taint(words));
    assert.instance(err, RegistrationError, `${words.join(' ')} was accepted`);
    assert.is.not((err as RegistrationError).code, 'TAINT_EXISTS');
  }
  // Another effect of the same key is no conflict.
  assert.equal(
    taintsOf(taint(['foo=bar:NoExecute', 'foo:NoSchedule-']).text)?.map((t) => `${t.key}:${t.effect}`),
    ['foo:NoExecute'],
  );
});

// taint_test.go TestValidate "Cluster name is not provided".
test('taint without a cluster name is a usage error', async () => {
  await usageError('taint', [], /taint needs a cluster name/);
});

// taint_test.go TestParseTaintArgs "Correct order of arguments" / "Incorrect order of arguments".
test('the cluster name comes first, then only taint words', () => {
  assert.equal(parseTaintArgs(['foo=bar:NoSchedule', 'foo_1=bar:NoExecute']), [
    { action: 'add', key: 'foo', value: 'bar', effect: 'NoSchedule' },
    { action: 'add', key: 'foo_1', value: 'bar', effect: 'NoExecute' },
  ]);
  assert.instance(
    refusal(() => parseTaintArgs(['foo=bar:NoSchedule', 'cluster_name', 'foo_1=bar:NoExecute'])),
    RegistrationError,
  );
});

// taint_test.go TestDeleteTaint: a removal by key and effect matches both; nothing matched is an error
// (reorganizeTaints: `taint "..." not found`).
test('removing key:Effect takes only the taint with that key and effect', () => {
  refusedWith(() => taint(['foo_1:NoSchedule-']), 'TAINT_NOT_FOUND', /foo_1:NoSchedule/);
  refusedWith(() => taint(['foo:NoExecute-']), 'TAINT_NOT_FOUND', /foo:NoExecute/);
  assert.is(taintsOf(taint(['foo:NoSchedule-']).text), undefined);
  const bare = TAINTED.replace(/ {2}taints:\n[\s\S]*$/, '');
  refusedWith(() => taint(['foo:NoSchedule-'], bare), 'TAINT_NOT_FOUND');
});

// taint_test.go TestDeleteTaintByKey: `key-` removes every taint of that key, whatever its value and effect.
test('removing key- takes every taint with that key', () => {
  refusedWith(() => taint(['foo_1-']), 'TAINT_NOT_FOUND', /foo_1/);
  const two = `${TAINTED}    - key: foo\n      effect: NoExecute\n    - key: other\n      effect: NoSchedule\n`;
  assert.equal(taintsOf(taint(['foo-'], two).text), [{ key: 'other', effect: 'NoSchedule' }]);
  const bare = TAINTED.replace(/ {2}taints:\n[\s\S]*$/, '');
  refusedWith(() => taint(['foo-'], bare), 'TAINT_NOT_FOUND');
});

// taint_test.go TestCheckIfTaintsAlreadyExists: without --overwrite, adding a key and effect the cluster already
// has is refused (whatever the value); the same key with another effect is a new taint.
test('adding a key and effect the cluster already has needs --overwrite', () => {
  const three = `${TAINTED}    - key: foo_2\n      value: bar\n      effect: NoSchedule\n    - key: foo_3\n      value: bar\n      effect: NoSchedule\n`;
  refusedWith(() => taint(['foo_2:NoSchedule'], three), 'TAINT_EXISTS', /foo_2/);
  refusedWith(() => taint(['foo_2:NoSchedule', 'foo_3:NoSchedule'], three), 'TAINT_EXISTS');
  const added = taint(['foo:NoExecute'], three);
  assert.equal(
    taintsOf(added.text)
      ?.map((t) => `${t.key}:${t.effect}`)
      .sort(),
    ['foo:NoExecute', 'foo:NoSchedule', 'foo_2:NoSchedule', 'foo_3:NoSchedule'],
  );
});

// taint_test.go TestReorganizeTaints "add new taint": the new taints come first, then the ones kept
// (reorganizeTaints starts newTaints from taintsToAdd and appends the old ones).
test('added taints are listed before the taints the cluster already had', () => {
  const added = taint(['foo_1:NoExecute']);
  assert.equal(
    taintsOf(added.text)?.map((t) => `${t.key}:${t.effect}`),
    ['foo_1:NoExecute', 'foo:NoSchedule'],
  );
});

// taint_test.go TestReorganizeTaints "delete taint with effect" / "delete taint with no effect" /
// "delete non-exist taint" / "add new taint and delete old one".
test('removing the only taint leaves none; removing a missing one changes nothing; add and remove in one go', () => {
  assert.is(taintsOf(taint(['foo:NoSchedule-']).text), undefined);
  assert.is(taintsOf(taint(['foo-']).text), undefined);
  refusedWith(() => taint(['foo_1:NoSchedule-']), 'TAINT_NOT_FOUND');
  assert.equal(taintsOf(taint(['foo_1:NoSchedule', 'foo:NoSchedule-']).text), [{ key: 'foo_1', effect: 'NoSchedule' }]);
});

// reorganizeTaints with --overwrite writes each given taint in place of the old one, first, and without its
// timeAdded: the Cluster admission (mutateClusterTaints) stamps a NoExecute taint that has none with the time of the
// update, so re-tainting restarts every toleration's tolerationSeconds.
test('--overwrite writes the taint anew: first, and a NoExecute one stamped with the time of the command', () => {
  const old = `${TAINTED}    - key: spot\n      value: a\n      effect: NoExecute\n      timeAdded: "2025-01-01T00:00:00Z"\n`;
  const again = taint(['spot=a:NoExecute'], old, true);
  assert.equal(taintsOf(again.text), [
    { key: 'spot', value: 'a', effect: 'NoExecute', timeAdded: '2026-01-02T03:04:05Z' },
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
  ]);
  assert.equal(again.summary, ['re-added taint spot=a:NoExecute (timeAdded 2026-01-02T03:04:05Z)']);
  // Already first and as given: nothing to write.
  assert.equal(taint(['foo=bar:NoSchedule'], TAINTED, true).summary, []);
});

// taint_test.go TestReorganizeTaints: "add new taint and delete old one" is MODIFIED, as is anything with --overwrite
// ("no changes with overwrite is true"); adding alone is TAINTED, removing alone UNTAINTED.
test("the command's word: modified with --overwrite or when adding and removing, else tainted or untainted", async () => {
  const repo = nginx();
  const word = async (args: string[]) => {
    const r = await command('taint', ['member1', ...args, '--repo', repo.path]);
    assert.is(r.code, 0, r.err);
    return r.out.split('\n')[0];
  };
  assert.is(await word(['a=x:NoSchedule']), 'cluster/member1 tainted');
  assert.is(await word(['b:NoSchedule', 'a:NoSchedule-']), 'cluster/member1 modified');
  assert.is(await word(['c:NoSchedule', '--overwrite']), 'cluster/member1 modified');
  assert.is(await word(['c-']), 'cluster/member1 untainted');
});

// join_test.go TestValidate "Validate_WithMoreThanOneArg_OnlyTheClusterNameIsRequired" and
// "Validate_WithoutClusterNameToJoinWith_ClusterNameIsRequired"; unjoin_test.go TestValidate, the same two.
test('join and unjoin take exactly one cluster name', async () => {
  await usageError('join', ['cluster2', 'cluster3', '--kubeconfig', 'k'], /join takes one cluster name/);
  await usageError('join', ['--kubeconfig', 'k'], /join needs a cluster name/);
  await usageError('unjoin', ['cluster2', 'cluster3'], /unjoin takes one cluster name/);
  await usageError('unjoin', [], /unjoin needs a cluster name/);
});

// join_test.go TestValidate "Validate_ClusterNameExceedsTheMaxLength_ClusterNameIsInvalid": at most 48 characters.
test('join refuses a cluster name longer than 48 characters', async () => {
  const repo = nginx();
  const r = await command('join', ['a'.repeat(49), '--repo', repo.path, '--kubeconfig', 'members.config']);
  assert.is(r.code, 1);
  assert.match(r.err, /is not a DNS label of at most 48 characters/);
  assert.is(repo.git(['ls-tree', '--name-only', 'main', 'clusters/']).includes('a'.repeat(49)), false);
});

// unjoin_test.go TestRunUnJoinCluster "RunUnJoinCluster_DeleteClusterObject_PullModeMemberCluster": karmadactl unjoin
// refuses a Pull mode cluster (unjoin.go RunUnJoinCluster: "cluster %s is a %s mode member cluster, please use
// command `unregister` ...") and deletes nothing.
test('unjoin refuses a Pull mode cluster and leaves its registration', async () => {
  const repo = nginx();
  writeWorkTree(repo, {
    'clusters/member3.yaml':
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member3\nspec:\n  syncMode: Pull\n',
  });
  commitAll(repo, 'member3 pulls');
  const before = repo.git(['rev-parse', 'main']).trim();
  const r = await command('unjoin', ['member3', '--repo', repo.path]);
  assert.is(r.code, 1, r.out);
  assert.match(r.err, /member3 is a Pull mode member cluster/);
  assert.is(repo.git(['rev-parse', 'main']).trim(), before);
});

test.run();
