// A long command's working line: shown and rewritten in place on a terminal's stderr, cleared before the answer, and
// absent anywhere else, so what scripts and CI logs read is the same as without it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workingLine } from '../../src/commands/workingLine.ts';
import { planCommand } from '../../src/commands/planCommand.ts';
import { commitAll, makeNginxRepo, scaledSample, writeWorkTree } from '../plans/helpers/nginxRepo.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';

test('off a terminal the working line writes nothing', () => {
  const written: string[] = [];
  const line = workingLine((s) => written.push(s), false);
  line.phase('rendering');
  line.done();
  assert.equal(written, []);
});

test('on a terminal each phase replaces the line, the seconds it has taken count up, and done clears it once', async () => {
  const written: string[] = [];
  let clock = 0;
  let ticked: () => void = () => {};
  const twoSeconds = new Promise<void>((resolve) => {
    ticked = resolve;
  });
  const line = workingLine(
    (s) => {
      written.push(s);
      if (s.endsWith(' 2s')) ticked();
    },
    true,
    { now: () => clock, everyMs: 5 },
  );
  // The line's own timer never holds the process open (unref'd): the test does, while it waits for the tick.
  const keepAlive = setInterval(() => {}, 60_000);
  line.phase('rendering the base (main)');
  clock = 2_400;
  await twoSeconds;
  clearInterval(keepAlive);
  line.phase('rendering the head (feature\x1b[31m)');
  line.done();
  line.done();
  assert.is(written[0], '\r\x1b[Krendering the base (main)…');
  assert.ok(written.includes('\r\x1b[Krendering the base (main)… 2s'));
  // A new phase starts its own clock; a revision's control characters are shown, never run.
  const head = written.find((s) => s.includes('head'));
  assert.ok(head?.startsWith('\r\x1b[Krendering the head (feature'));
  assert.not.ok(head?.slice(4).includes('\x1b'));
  assert.ok(head?.endsWith(')…'));
  assert.is(written.filter((s) => s === '\r\x1b[K').length, 1);
  assert.is(written.at(-1), '\r\x1b[K');
});

test('plan on a terminal says which render it is in, then clears the line and prints the same plan', async () => {
  const { repo } = makeNginxRepo();
  try {
    const s = scaledSample();
    repo.git(['checkout', '-q', '-b', 'feature']);
    writeWorkTree(repo, { 'templates/deployment.yaml': s.deployment, 'policies/propagationpolicy.yaml': s.policy });
    commitAll(repo, 'Scale nginx to 3');
    const terminal = { ...commonOptions(repo.path), errIsTerminal: true };
    const piped = commonOptions(repo.path);
    assert.is(await planCommand({ ...terminal, base: 'main', head: 'feature' }), 1);
    assert.is(await planCommand({ ...piped, base: 'main', head: 'feature' }), 1);
    assert.is(terminal.stdout(), piped.stdout());
    assert.is(piped.stderr(), '');
    const phases = terminal
      .stderr()
      .split('\r\x1b[K')
      .filter((shown) => shown !== '')
      .map((shown) => shown.replace(/… \d+s$|…$/, ''))
      // On a slow machine a phase is rewritten with its seconds: one phase still.
      .filter((phase, i, all) => phase !== all[i - 1]);
    assert.equal(phases, [
      'flotilla plan: rendering the base (main)',
      "flotilla plan: rendering the head (feature) over the base's results",
      'flotilla plan: comparing what each cluster gets',
    ]);
    assert.ok(terminal.stderr().endsWith('\r\x1b[K'));
  } finally {
    repo.cleanup();
  }
});

test.run();
