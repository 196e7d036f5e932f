// The reconciler's log entries as progress lines for a person at a terminal: what each step did and how long it
// took, silence for steps that did nothing, and nothing from Git able to act on the terminal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseLogFormat, progressLines, progressPrinter } from '../../src/commands/progressLine.ts';
import { UsageError } from '../../src/errors/UsageError.ts';

const SOURCE = 'bba73fa192f3215f151a18f5a91ee3f14a814cb9';
const OUTPUT = '864c432465810cdf82d8d57b01d0529ed0e71408';

test('a step that did something is one marked line: what, to what, how long', () => {
  assert.equal(
    progressLines({ step: 'render', sourceCommit: SOURCE, outputCommit: OUTPUT, files: 3, errors: 0, ms: 41 }),
    ['✓ rendered bba73fa → 864c432: 3 files (41 ms)'],
  );
  assert.equal(
    progressLines({
      step: 'apply',
      cluster: 'member1',
      sourceCommit: SOURCE,
      writes: 3,
      created: 1,
      configured: 2,
      unchanged: 4,
      ms: 1520,
    }),
    ['✓ applied bba73fa to member1: 1 created, 2 configured (1.5 s)'],
  );
  assert.equal(
    progressLines({
      step: 'pass',
      reasons: ['push'],
      sourceCommit: SOURCE,
      rendered: 1,
      writes: 2,
      statusCommit: OUTPUT,
      ms: 900,
    }),
    ['✓ pass (push) bba73fa: 1 commit rendered, 2 writes to members, status recorded (900 ms)'],
  );
  assert.equal(progressLines({ step: 'stop', pid: 1 }), ['✓ stopped']);
});

test('steps that found nothing to do print nothing', () => {
  assert.equal(
    progressLines({ step: 'apply', cluster: 'member1', sourceCommit: SOURCE, writes: 0, unchanged: 5, ms: 13 }),
    [],
  );
  assert.equal(
    progressLines({
      step: 'pass',
      reasons: ['resync'],
      sourceCommit: SOURCE,
      rendered: 0,
      writes: 0,
      statusCommit: null,
      ms: 139,
    }),
    [],
  );
  assert.equal(
    progressLines({
      step: 'status-pass',
      reasons: ['period'],
      clusters: 2,
      objects: 9,
      unhealthy: 0,
      missing: 0,
      statusCommit: null,
      ms: 80,
    }),
    [],
  );
  assert.equal(progressLines({ step: 'schedule', next: 'status pass (catch-up) at 2026-12-01T17:30:34.452Z' }), []);
  assert.equal(progressLines({ step: 'fetch', sourceCommit: SOURCE, moved: false, ms: 200 }), []);
  // The pass line that follows says it.
  assert.equal(progressLines({ step: 'status', sourceCommit: SOURCE, statusCommit: OUTPUT, paths: 7 }), []);
});

test('failures and what needs a look are marked as such, with the message', () => {
  assert.equal(progressLines({ step: 'pass', reasons: ['push'], error: 'member1: connection refused', ms: 12 }), [
    '✗ pass failed: member1: connection refused (12 ms)',
  ]);
  assert.equal(
    progressLines({
      step: 'apply',
      cluster: 'member2',
      sourceCommit: SOURCE,
      writes: 1,
      created: 1,
      failed: 1,
      ms: 40,
    }),
    ['✗ applied bba73fa to member2: 1 created, 1 failed (40 ms)'],
  );
  assert.equal(
    progressLines({
      step: 'status-pass',
      reasons: ['period'],
      clusters: 2,
      objects: 9,
      unhealthy: 1,
      missing: 0,
      statusCommit: 'c0ffee0c0ffee',
      ms: 80,
    }),
    ['! status pass (period): 2 clusters, 9 objects, 1 unhealthy (80 ms)'],
  );
  assert.equal(
    progressLines({ step: 'clusters', cluster: 'member9', skipped: 'clusters/member9.yaml: names no kubeconfig' }),
    ['✗ member9: clusters/member9.yaml: names no kubeconfig'],
  );
  assert.equal(
    progressLines({ agent: 'member3', step: 'apply', cluster: 'member3', writes: 0, waiting: 'nothing rendered yet' }),
    ['· agent member3: waiting: nothing rendered yet'],
  );
});

test('a step this module does not know still shows, as its fields', () => {
  assert.equal(progressLines({ step: 'shard', owner: 'flotilla-0', clusters: ['member1'] }), [
    '· shard: owner=flotilla-0 clusters=["member1"]',
  ]);
});

test('text from Git or a member cannot act on the terminal: control characters are shown, not sent', () => {
  const [line] = progressLines({
    step: 'pass',
    reasons: ['push'],
    error: 'bad \u001b]0;pwned\u0007 name\r\u202e',
    ms: 1,
  });
  assert.is(line, '✗ pass failed: bad \\x1b]0;pwned\\x07 name\\r\\u202e (1 ms)');
  assert.equal(progressLines({ step: 'apply', cluster: 'm\n1', sourceCommit: SOURCE, writes: 1, created: 1 }), [
    '✓ applied bba73fa to m\\n1: 1 created',
  ]);
});

test('the printer prefixes each line and writes a note every pass repeats once', () => {
  const written: string[] = [];
  const print = progressPrinter(
    (s) => written.push(s),
    () => '[1.0s] ',
  );
  const note = {
    agent: 'member3',
    step: 'apply',
    cluster: 'member3',
    writes: 0,
    notes: ['clusters/member3/ is empty'],
  };
  print(note);
  print({ step: 'schedule', next: 'later' });
  print(note);
  print({ step: 'stop' });
  assert.equal(written, ['[1.0s] · agent member3: clusters/member3/ is empty\n', '[1.0s] ✓ stopped\n']);
});

test('--log-format: text on a terminal and JSON otherwise unless given; anything else is a usage error', () => {
  assert.is(chooseLogFormat(undefined, true), 'text');
  assert.is(chooseLogFormat(undefined, false), 'json');
  assert.is(chooseLogFormat('json', true), 'json');
  assert.is(chooseLogFormat('text', false), 'text');
  assert.throws(
    () => chooseLogFormat('yaml', true),
    (e: unknown) => e instanceof UsageError && /--log-format yaml/.test((e as Error).message),
  );
});

test.run();
