// A binding that could not be scheduled is retried as soon as the status branch shows the change that lets it fit:
// Karmada's guestbook sample (CRD + custom resource + policies) pushed in one commit lands the Guestbook on member1.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DEFAULT_STATUS_UPDATE_FREQUENCY_MS,
  startReconciler,
  type Reconciler,
} from '../../src/passes/startReconciler.ts';
import { clusterRegistration, type Fleet, makeFleet, reconcilerOptions } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { runProgram, type ProgramResult } from '../helpers/runProgram.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const SAMPLES = '/work/shared/karmada-samples/guestbook';
/** The status period a reconciler runs with unless told: Karmada's --cluster-status-update-frequency default. */
const STATUS_PERIOD_MS = DEFAULT_STATUS_UPDATE_FREQUENCY_MS;

let fleet: Fleet;
let events: LogEvents;
let reconciler: Reconciler;

test.before(async () => {
  fleet = await makeFleet({ members: ['member1', 'member2'], readyDelayMs: 0 });
  events = new LogEvents();
  reconciler = await startReconciler(reconcilerOptions(fleet, events.log));
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

const sample = (file: string) => readFileSync(path.join(SAMPLES, file), 'utf8');
const passFor = (sha: string) => (e: Record<string, unknown>) => e.step === 'pass' && e.sourceCommit === sha;
const guestbookOn = (i: number) =>
  fleet.members[i]!.store.get('webapp.my.domain/guestbooks', 'default', 'guestbook-sample');

function flotilla(args: string[]): Promise<ProgramResult> {
  return runProgram(process.execPath, [BIN, ...args], { timeout: 60_000 });
}

test('the guestbook sample pushed in one commit ends with the Guestbook on member1 by a retry its own pass plans, not a status period later; verify passes', async () => {
  // A running fleet first: the status branch lists what each member serves, and no member serves Guestbook yet.
  const first = fleet.push(
    {
      'clusters/member1.yaml': clusterRegistration('member1'),
      'clusters/member2.yaml': clusterRegistration('member2'),
    },
    'register members',
  );
  await events.next('the pass of the registrations', passFor(first));

  const sha = fleet.push(
    {
      'templates/guestbooks-crd.yaml': sample('guestbooks-crd.yaml'),
      'templates/guestbook.yaml': sample('guestbook.yaml'),
      'policies/guestbooks-clusterpropagationpolicy.yaml': sample('guestbooks-clusterpropagationpolicy.yaml'),
      'policies/guestbooks-propagationpolicy.yaml': sample('guestbooks-propagationpolicy.yaml'),
      'policies/guestbooks-overridepolicy.yaml': sample('guestbooks-overridepolicy.yaml'),
    },
    'guestbook: CRD, custom resource and policies in one commit',
  );
  const pass = await events.next('the pass of the guestbook commit', passFor(sha));
  const render = events.entries.find((e) => e.step === 'render' && e.sourceCommit === sha);
  assert.ok(render, 'the commit was rendered');
  assert.ok(
    fleet.members[0]!.store.get('apiextensions.k8s.io/customresourcedefinitions', '', 'guestbooks.webapp.my.domain'),
    'the CRD reached member1 in that pass',
  );
  assert.is(guestbookOn(0), undefined, 'the first render found the API not served by member1: the Guestbook waits');
  assert.ok(pass.statusCommit, 'the pass recorded member1 serving the new API');

  // Not timed: the pass that recorded member1 serving the API planned the retry at once, so no status period (no
  // status pass of the cadence) is waited for. The deadline below is only a safety net.
  const planned = await events.next(
    'what the pass of the guestbook commit planned',
    (e) => e.step === 'schedule' && events.entries.indexOf(e) > events.entries.indexOf(pass),
    STATUS_PERIOD_MS,
    true,
  );
  assert.is(planned.next, 'full pass (pending-binding)', 'the retry is planned by the pass itself');
  const retried = await events.next(
    'the retry of the pending Guestbook',
    (e) => e.step === 'pass' && Array.isArray(e.reasons) && (e.reasons as string[]).includes('pending-binding'),
    3 * STATUS_PERIOD_MS,
    true,
  );
  assert.is(retried.sourceCommit, sha, 'the same source commit, rendered again: no empty commit needed');
  const guestbook = guestbookOn(0);
  assert.ok(guestbook, 'the Guestbook is on member1');
  assert.is((guestbook!.spec as { size?: number }).size, 4, 'with the OverridePolicy of the sample');
  assert.is(guestbookOn(1), undefined, 'member2 gets nothing');

  const verified = await flotilla(['verify', '--repo', fleet.bare]);
  assert.is(verified.code, 0, verified.stdout + verified.stderr);
  assert.match(verified.stdout, /OK: \d+ files match the source/);
  // The render that left the Guestbook pending verifies too: it was right at the time, with the status it read.
  const before = fleet.git(fleet.bare, 'rev-parse', 'flotilla/rendered~1');
  const older = await flotilla(['verify', '--repo', fleet.bare, '--rev', before]);
  assert.is(older.code, 0, older.stdout + older.stderr);
});

test.run();
