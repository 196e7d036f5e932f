import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  describeConfinementProblem,
  readConfinedFile,
  resolveConfinedPath,
} from '../../src/confinement/readConfinedFile.ts';

let top: string;
let root: string;

test.before.each(() => {
  top = mkdtempSync(path.join(tmpdir(), 'flotilla-confine-'));
  root = path.join(top, 'credentials');
  mkdirSync(path.join(root, 'team-a'), { recursive: true });
  writeFileSync(path.join(root, 'members.config'), 'inside');
  writeFileSync(path.join(root, 'team-a', 'a.config'), 'team a');
  writeFileSync(path.join(top, 'outside.config'), 'TOKEN=s3cret');
});
test.after.each(() => rmSync(top, { recursive: true, force: true }));

const problem = (name: string, opts = {}) => {
  const r = readConfinedFile(root, name, opts);
  return 'problem' in r ? r.problem : r.bytes.toString();
};

test('a relative name inside the root is read, also through a folder and a harmless ..', () => {
  assert.is(problem('members.config'), 'inside');
  assert.is(problem('team-a/a.config'), 'team a');
  assert.is(problem('team-a/../members.config'), 'inside');
  assert.is(problem('./team-a//a.config'), 'team a');
});

test('absolute names and .. that climb out are refused before anything is opened', () => {
  assert.is(problem(path.join(top, 'outside.config')), 'absolute');
  assert.is(problem('/etc/passwd'), 'absolute');
  assert.is(problem('../outside.config'), 'escapes');
  assert.is(problem('team-a/../../outside.config'), 'escapes');
  assert.is(problem('../missing-anyway'), 'escapes');
  assert.is(problem(''), 'empty');
  assert.is(problem('members.config\0x'), 'empty');
});

test('a symlink out of the root is refused, whether it is the file, a folder on the way, or relative', () => {
  symlinkSync(path.join(top, 'outside.config'), path.join(root, 'link.config'));
  symlinkSync(top, path.join(root, 'up'));
  symlinkSync('../outside.config', path.join(root, 'team-a', 'rel.config'));
  symlinkSync('/proc/self/environ', path.join(root, 'environ'));
  assert.is(problem('link.config'), 'symlink-out');
  assert.is(problem('up/outside.config'), 'symlink-out');
  assert.is(problem('team-a/../link.config'), 'symlink-out');
  assert.is(problem('environ'), 'symlink-out');
});

test('a symlink that stays inside the root is followed; a root that is itself a symlink works', () => {
  symlinkSync('team-a/a.config', path.join(root, 'alias.config'));
  assert.is(problem('alias.config'), 'team a');
  const linkedRoot = path.join(top, 'linked-root');
  symlinkSync(root, linkedRoot);
  const r = readConfinedFile(linkedRoot, 'members.config');
  assert.ok(!('problem' in r) && r.bytes.toString() === 'inside');
  assert.ok(!('problem' in r) && r.path === path.join(root, 'members.config'), 'the real path is reported');
});

test('folders, FIFOs and devices are not regular files; a missing name or root is named as such', () => {
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  symlinkSync('/dev/zero', path.join(root, 'zero'));
  assert.is(problem('team-a'), 'not-regular');
  assert.is(problem('fifo'), 'not-regular', 'a FIFO is refused without blocking');
  assert.is(problem('zero'), 'symlink-out');
  assert.is(problem('nope.config'), 'missing');
  assert.is(problem('members.config/x'), 'missing');
  const gone = readConfinedFile(path.join(top, 'no-such-dir'), 'members.config');
  assert.equal(gone, { problem: 'root-missing' });
});

test('absolute names only where allowed, and then only inside the root', () => {
  assert.is(problem(path.join(root, 'members.config'), { allowAbsolute: true }), 'inside');
  assert.is(problem(path.join(top, 'outside.config'), { allowAbsolute: true }), 'escapes');
  symlinkSync(path.join(top, 'outside.config'), path.join(root, 'link.config'));
  assert.is(problem(path.join(root, 'link.config'), { allowAbsolute: true }), 'symlink-out');
});

test('relative names can resolve against a base folder inside the root', () => {
  assert.is(problem('a.config', { base: 'team-a' }), 'team a');
  assert.is(problem('../members.config', { base: 'team-a' }), 'inside');
  assert.is(problem('../../outside.config', { base: 'team-a' }), 'escapes');
  assert.equal(resolveConfinedPath(root, 'a.config', { base: path.join(root, 'team-a') }), {
    path: path.join(root, 'team-a', 'a.config'),
  });
});

test('files over the size bound are refused', () => {
  writeFileSync(path.join(root, 'big'), Buffer.alloc(2048));
  assert.is(problem('big', { maxBytes: 1024 }), 'too-large');
});

test('the words for a problem name the root and nothing read from a file', () => {
  assert.match(describeConfinementProblem('symlink-out', '/srv/creds'), 'symlink to somewhere outside /srv/creds');
  assert.match(describeConfinementProblem('escapes', '/srv/creds'), 'leads outside /srv/creds');
  assert.match(describeConfinementProblem('absolute', '/srv/creds'), 'relative to /srv/creds');
});

test.run();
