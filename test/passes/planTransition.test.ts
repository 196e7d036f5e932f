// The reconciler's transition alone (pure, no I/O): which pass runs next, when, and why; what is recorded when; what
// stop waits for. Each case is a behaviour of the reconciler the daemon tests (startReconciler, passTiming,
// pendingBindings) see end to end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planTransition } from '../../src/passes/planTransition.ts';
import type { PassDeadline, PassSchedule } from '../../src/passes/readPassSchedule.ts';
import {
  initialReconcilerState,
  type PassFacts,
  type ReconcilerEffect,
  type ReconcilerEvent,
  type ReconcilerState,
} from '../../src/passes/reconcilerStates.ts';

/** The outcome the shell would record: here just a label, since the machine only carries it. */
type O = string;
const T0 = Date.parse('2026-12-01T12:00:00Z');
const TIMING = { intervalMs: 1_000, forMs: 30_000 };
const fresh = (): ReconcilerState<O> =>
  initialReconcilerState<O>({ probed: new Set(['member1']), catchUpTiming: TIMING });

/** Feeds events in order; returns the last state, every effect, and what each event's request was covered by. */
function feed(state: ReconcilerState<O>, ...events: ReconcilerEvent<O>[]) {
  const effects: ReconcilerEffect<O>[] = [];
  const covers: (number | undefined)[] = [];
  for (const event of events) {
    const t = planTransition(state, event);
    state = t.state;
    effects.push(...t.effects);
    covers.push(t.covers);
  }
  return { state, effects, covers };
}
const types = (effects: readonly ReconcilerEffect<O>[]) => effects.map((e) => e.type);
const started = (effects: readonly ReconcilerEffect<O>[]) =>
  effects.flatMap((e) => (e.type === 'startPass' ? [e.pass] : []));
const counted = (effects: readonly ReconcilerEffect<O>[]) =>
  effects.flatMap((e) => (e.type === 'countTrigger' ? [e.trigger] : []));

const schedule = (over: Partial<PassSchedule> = {}): PassSchedule => ({
  clusterStateKey: 'k',
  gracefulEvictions: false,
  deadlines: [],
  retry: new Map(),
  ...over,
});
const fullFacts = (over: Partial<Extract<PassFacts, { kind: 'full'; ok: true }>> = {}): PassFacts => ({
  kind: 'full',
  ok: true,
  writes: 0,
  touched: [],
  wroteStatus: false,
  statusPaths: [],
  startedAt: T0,
  renderedKey: 'k',
  ...over,
});
const statusFacts = (over: Partial<Extract<PassFacts, { kind: 'status'; ok: true }>> = {}): PassFacts => ({
  kind: 'status',
  ok: true,
  missing: [],
  unhealthy: [],
  wroteStatus: false,
  statusPaths: [],
  startedAt: T0,
  ...over,
});
const ended = (facts: PassFacts, outcome = 'outcome'): ReconcilerEvent<O> => ({ type: 'passEnded', facts, outcome });
const read = (s: PassSchedule = schedule(), now = T0 + 1_000): ReconcilerEvent<O> => ({
  type: 'scheduleRead',
  schedule: s,
  now,
});
/** A reconciler that ran one full pass and planned after it (nothing due, nothing armed). */
const afterOneFullPass = () =>
  feed(fresh(), { type: 'kick', reason: 'start', kind: 'full' }, ended(fullFacts()), read()).state;

test('an idle reconciler starts a pass at once for a trigger, and counts the trigger', () => {
  const { state, effects, covers } = feed(fresh(), { type: 'refChanged' });
  assert.equal(effects, [
    { type: 'countTrigger', trigger: 'push' },
    { type: 'startPass', pass: { id: 1, kind: 'full', reasons: ['push'] } },
  ]);
  assert.equal(covers, [1]);
  assert.is(state.phase.name, 'running');
});

test('each outside event stands for its trigger: push, fetch, webhook, resync (full passes), status-update (a status pass)', () => {
  const events: [ReconcilerEvent<O>, string, string][] = [
    [{ type: 'refChanged' }, 'push', 'full'],
    [{ type: 'cronTick' }, 'fetch', 'full'],
    [{ type: 'webhook' }, 'webhook', 'full'],
    [{ type: 'resyncTick' }, 'resync', 'full'],
    [{ type: 'statusPeriod' }, 'status-update', 'status'],
  ];
  for (const [event, reason, kind] of events) {
    const [pass] = started(feed(fresh(), event).effects);
    assert.equal([pass?.reasons, pass?.kind], [[reason], kind], event.type);
  }
});

test('a webhook during a pass queues exactly one more pass; every later trigger shares it, each reason once', () => {
  const { state, effects, covers } = feed(
    fresh(),
    { type: 'refChanged' },
    { type: 'webhook' },
    { type: 'refChanged' },
    { type: 'kick', reason: 'webhook', kind: 'full' },
  );
  assert.is(started(effects).length, 1, 'nothing else starts while a pass runs');
  assert.equal(covers, [1, 2, 2, 2], 'the triggers during the pass wait for the queued pass, not the running one');
  assert.equal(state.phase.name === 'running' && state.phase.queued, {
    id: 2,
    kind: 'full',
    reasons: ['webhook', 'push'],
  });
  assert.equal(counted(effects), ['push', 'webhook', 'push', 'webhook'], 'every trigger is counted, shared or not');
});

test('a status period during a full pass queues a status pass; a full trigger after it makes the queued pass full', () => {
  let { state } = feed(fresh(), { type: 'refChanged' }, { type: 'statusPeriod' });
  assert.equal(state.phase.name === 'running' && state.phase.queued, {
    id: 2,
    kind: 'status',
    reasons: ['status-update'],
  });
  ({ state } = feed(state, { type: 'webhook' }));
  assert.equal(state.phase.name === 'running' && state.phase.queued, {
    id: 2,
    kind: 'full',
    reasons: ['status-update', 'webhook'],
  });
});

test('a status period that comes while a full pass is queued is merged into it: a full pass does what a status pass does', () => {
  const { state } = feed(fresh(), { type: 'statusPeriod' }, { type: 'webhook' }, { type: 'statusPeriod' });
  assert.equal(state.phase.name === 'running' && state.phase.queued, {
    id: 2,
    kind: 'full',
    reasons: ['webhook', 'status-update'],
  });
});

test('a full pass is recorded as soon as it ends, then the afterPass hook runs and the schedule is read, still inside the single flight', () => {
  const { state, effects } = feed(
    fresh(),
    { type: 'kick', reason: 'start', kind: 'full' },
    ended(fullFacts(), 'full outcome'),
  );
  assert.equal(types(effects).slice(2), ['record', 'afterPass', 'readSchedule']);
  assert.equal(effects[2], {
    type: 'record',
    pass: { id: 1, kind: 'full', reasons: ['start'] },
    outcome: 'full outcome',
  });
  const more = feed(state, { type: 'webhook' });
  assert.equal(started(more.effects), [], 'a trigger while the schedule is read still queues');
  assert.equal(more.covers, [2]);
});

test('once planned, the queued pass starts and the kicks of the pass that ended settle', () => {
  const { effects, state } = feed(fresh(), { type: 'refChanged' }, { type: 'webhook' }, ended(fullFacts()), read());
  assert.equal(started(effects), [
    { id: 1, kind: 'full', reasons: ['push'] },
    { id: 2, kind: 'full', reasons: ['webhook'] },
  ]);
  assert.equal(effects.at(-1), { type: 'settle', passes: [1] });
  assert.equal(state.phase, { name: 'running', pass: { id: 2, kind: 'full', reasons: ['webhook'] } });
  const idle = feed(state, ended(fullFacts()), read());
  assert.equal(idle.state.phase, { name: 'idle' });
  assert.equal(idle.effects.at(-1), { type: 'settle', passes: [2] });
});

test('a status pass that succeeded is recorded once planned, with what comes next; one that failed, as soon as it ends', () => {
  const deadline: PassDeadline = { at: T0 + 5_000, kind: 'full', reason: 'failover-check' };
  const ok = feed(
    fresh(),
    { type: 'statusPeriod' },
    ended(statusFacts(), 'status outcome'),
    read(schedule({ deadlines: [deadline] })),
  );
  assert.equal(types(ok.effects), ['countTrigger', 'startPass', 'readSchedule', 'setWake', 'record', 'settle']);
  assert.equal(ok.effects[4], {
    type: 'record',
    pass: { id: 1, kind: 'status', reasons: ['status-update'] },
    outcome: 'status outcome',
    next: `full pass (failover-check) at ${new Date(T0 + 5_050).toISOString()}`,
  });
  const failed = feed(
    fresh(),
    { type: 'statusPeriod' },
    ended({ kind: 'status', ok: false, startedAt: T0 }, 'failed'),
    read(schedule({ deadlines: [deadline] })),
  );
  assert.equal(types(failed.effects), [
    'countTrigger',
    'startPass',
    'record',
    'readSchedule',
    'setWake',
    'logSchedule',
    'settle',
  ]);
  assert.not.ok('next' in failed.effects[2]!, 'the error line carries no plan; the plan is its own schedule line');
});

test('a status write that changes the managed taints asks for a render at once (cluster-state), counted, the wake left armed', () => {
  let state = feed(
    fresh(),
    { type: 'statusPeriod' },
    ended(statusFacts()),
    read(schedule({ deadlines: [{ at: T0 + 9_000, kind: 'status', reason: 'ready-flip', cluster: 'member2' }] })),
  ).state;
  const armed = state.memory.wake;
  assert.ok(armed);
  const r = feed(
    state,
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true })),
    read(schedule({ clusterStateKey: 'tainted' })),
  );
  assert.equal(counted(r.effects).at(-1), 'cluster-state');
  assert.equal(started(r.effects).at(-1), { id: 3, kind: 'full', reasons: ['cluster-state'] });
  assert.not.ok(
    types(r.effects).includes('setWake') || types(r.effects).includes('clearWake'),
    'the due pass plans again',
  );
  assert.equal(r.state.memory.wake, armed);
  state = r.state;
  const same = feed(
    state,
    ended(fullFacts({ renderedKey: 'tainted', wroteStatus: true })),
    read(schedule({ clusterStateKey: 'tainted' })),
  );
  assert.equal(started(same.effects), [], 'the render took the new taints in: nothing more is due');
});

test('drift a status pass finds asks for one full pass; the same drift again does not (the resync retries it)', () => {
  const drift = statusFacts({ missing: ['member1\0ConfigMap default/settings'] });
  const first = feed(afterOneFullPass(), { type: 'statusPeriod' }, ended(drift), read());
  assert.equal(started(first.effects).at(-1)?.reasons, ['drift']);
  const again = feed(first.state, ended(fullFacts()), read(), { type: 'statusPeriod' }, ended(drift), read());
  assert.equal(
    started(again.effects).map((p) => p.reasons),
    [['status-update']],
    'no second drift pass for the same objects',
  );
  const other = feed(
    again.state,
    { type: 'statusPeriod' },
    ended(statusFacts({ missing: ['member2\0ConfigMap default/settings'] })),
    read(),
  );
  assert.equal(started(other.effects).at(-1)?.reasons, ['drift'], 'new drift asks again');
});

test('a pending binding that the status branch may now let fit is retried at once (pending-binding), and the same retry only once', () => {
  const retry = new Map([
    ['webapp.my.domain/v1, Kind=Guestbook default/guestbook-sample', 'member1 now serves webapp.my.domain/v1'],
  ]);
  const first = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true })),
    read(schedule({ retry })),
  );
  assert.equal(counted(first.effects), ['status-update', 'pending-binding']);
  assert.equal(started(first.effects).at(-1), { id: 3, kind: 'full', reasons: ['pending-binding'] });
  const again = feed(first.state, ended(fullFacts()), read(schedule({ retry })));
  assert.equal(started(again.effects), [], 'the retry that changed nothing is not asked again');
  const why = new Map([[[...retry.keys()][0]!, 'member2 now serves webapp.my.domain/v1']]);
  assert.equal(
    started(
      feed(again.state, { type: 'statusPeriod' }, ended(statusFacts()), read(schedule({ retry: why }))).effects,
    ).at(-1)?.reasons,
    ['pending-binding'],
    'a new reason asks again',
  );
});

test("an exporter's endpoints recorded changed on the status branch ask for a full pass (endpoints) that applies the importers' slices, whichever pass wrote them", () => {
  const status = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true, statusPaths: ['clusters/member1.yaml', 'endpoints/member1.yaml'] })),
    read(),
  );
  assert.equal(counted(status.effects), ['status-update', 'endpoints']);
  assert.equal(started(status.effects).at(-1), { id: 3, kind: 'full', reasons: ['endpoints'] });
  const full = feed(
    afterOneFullPass(),
    { type: 'resyncTick' },
    ended(fullFacts({ wroteStatus: true, statusPaths: ['endpoints/member1.yaml'] })),
    read(),
  );
  assert.equal(
    started(full.effects).at(-1)?.reasons,
    ['endpoints'],
    'a full pass that collected new endpoints after its apply runs once more',
  );
  const unchanged = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true, statusPaths: ['clusters/member1.yaml'] })),
    read(),
  );
  assert.is(started(unchanged.effects).length, 1, 'no endpoints change, no full pass');
});

test('replacements reported healthy under a graceful eviction ask for a render (graceful-eviction), whichever pass wrote that status', () => {
  const status = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true, statusPaths: ['templates/default/deployment.apps_nginx.yaml'] })),
    read(schedule({ gracefulEvictions: true })),
  );
  assert.equal(started(status.effects).at(-1)?.reasons, ['graceful-eviction']);
  const full = feed(
    afterOneFullPass(),
    { type: 'resyncTick' },
    ended(fullFacts({ wroteStatus: true, statusPaths: ['templates/default/deployment.apps_nginx.yaml'] })),
    read(schedule({ gracefulEvictions: true })),
  );
  assert.equal(started(full.effects).at(-1)?.reasons, ['graceful-eviction']);
  const clustersOnly = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts({ wroteStatus: true, statusPaths: ['clusters/member1.yaml'] })),
    read(schedule({ gracefulEvictions: true })),
  );
  assert.is(started(clustersOnly.effects).length, 1, 'a cluster status alone ends no eviction');
});

test('a failover deadline arms the wake a little after it; when it fires, a full pass runs with that reason', () => {
  const r = feed(
    afterOneFullPass(),
    { type: 'statusPeriod' },
    ended(statusFacts()),
    read(schedule({ deadlines: [{ at: T0 + 2_000, kind: 'full', reason: 'failover-check' }] }), T0 + 1_500),
  );
  const wake = r.effects.find((e) => e.type === 'setWake');
  assert.equal(wake, {
    type: 'setWake',
    wake: { at: T0 + 2_050, reason: 'failover-check', kind: 'full' },
    delayMs: 550,
  });
  const fired = feed(r.state, { type: 'deadline', reason: 'failover-check', kind: 'full' });
  assert.equal(started(fired.effects), [{ id: 3, kind: 'full', reasons: ['failover-check'] }]);
  assert.equal(counted(fired.effects), ['failover-check']);
  assert.is(fired.state.memory.wake, undefined);
});

test('a deadline the last pass of its kind already saw is not woken for again; a full pass covers status deadlines too', () => {
  const flip: PassDeadline = { at: T0 - 1_000, kind: 'status', reason: 'ready-flip', cluster: 'member2' };
  const r = feed(
    fresh(),
    { type: 'refChanged' },
    ended(fullFacts({ startedAt: T0 })),
    read(schedule({ deadlines: [flip] })),
  );
  assert.ok(types(r.effects).includes('clearWake'));
  assert.is(r.state.memory.wake, undefined);
  const later = feed(
    fresh(),
    { type: 'refChanged' },
    ended(fullFacts({ startedAt: T0 })),
    read(schedule({ deadlines: [{ ...flip, at: T0 + 3_000 }] })),
  );
  const schedLine = later.effects.find((e) => e.type === 'logSchedule');
  assert.equal(schedLine, {
    type: 'logSchedule',
    next: `status pass (ready-flip) at ${new Date(T0 + 3_050).toISOString()} for member2`,
  });
});

test('a deadline days away is woken for after at most a day (setTimeout limit); the passes in between look again', () => {
  const r = feed(
    fresh(),
    { type: 'refChanged' },
    ended(fullFacts()),
    read(schedule({ deadlines: [{ at: T0 + 30 * 86_400_000, kind: 'full', reason: 'graceful-eviction' }] }), T0),
  );
  const wake = r.effects.find((e) => e.type === 'setWake');
  assert.is(wake?.type === 'setWake' && wake.delayMs, 86_400_000);
});

test('after a pass that wrote to members (drift-repaired included), status passes follow what it touched until it is all healthy', () => {
  const touched = ['member1\0apps/Deployment default/nginx'];
  const wrote = feed(
    fresh(),
    { type: 'resyncTick' },
    ended(fullFacts({ writes: 1, touched })),
    read(schedule(), T0 + 1_000),
  );
  assert.equal(
    wrote.effects.find((e) => e.type === 'setWake'),
    { type: 'setWake', wake: { at: T0 + 2_000, reason: 'catch-up', kind: 'status' }, delayMs: 1_000 },
  );
  const fired = feed(wrote.state, { type: 'deadline', reason: 'catch-up', kind: 'status' });
  assert.equal(started(fired.effects), [{ id: 2, kind: 'status', reasons: ['catch-up'] }]);
  const stillRolling = feed(fired.state, ended(statusFacts({ unhealthy: touched })), read(schedule(), T0 + 2_100));
  assert.equal(stillRolling.state.memory.wake, { at: T0 + 3_100, reason: 'catch-up', kind: 'status' });
  const healthy = feed(
    stillRolling.state,
    { type: 'deadline', reason: 'catch-up', kind: 'status' },
    ended(statusFacts()),
    read(schedule(), T0 + 3_200),
  );
  assert.is(healthy.state.memory.catchUp, undefined, 'all healthy: the catch-up ends');
  assert.ok(types(healthy.effects).includes('clearWake'));
  assert.equal(
    healthy.effects.find((e) => e.type === 'record'),
    { type: 'record', pass: { id: 3, kind: 'status', reasons: ['catch-up'] }, outcome: 'outcome' },
    'its line says nothing comes next',
  );
});

test('the catch-up window ends after its time even if what was touched never turns healthy; an earlier deadline still comes first', () => {
  const touched = ['member1\0apps/Deployment default/nginx'];
  const wrote = feed(
    fresh(),
    { type: 'resyncTick' },
    ended(fullFacts({ writes: 1, touched })),
    read(schedule({ deadlines: [{ at: T0 + 1_200, kind: 'full', reason: 'failover-check' }] }), T0 + 1_000),
  );
  assert.equal(wrote.state.memory.wake?.reason, 'failover-check', 'the deadline is sooner than the next catch-up');
  const late = feed(
    wrote.state,
    { type: 'statusPeriod' },
    ended(statusFacts({ unhealthy: touched })),
    read(schedule(), T0 + 1_000 + TIMING.forMs),
  );
  assert.is(late.state.memory.catchUp, undefined);
});

test('a schedule that cannot be read is logged; the wake stays as it was and the catch-up window still follows the pass', () => {
  const touched = ['member1\0apps/Deployment default/nginx'];
  const armed = feed(
    fresh(),
    { type: 'resyncTick' },
    ended(fullFacts({ writes: 1, touched })),
    read(schedule(), T0 + 1_000),
  ).state;
  const r = feed(armed, { type: 'deadline', reason: 'catch-up', kind: 'status' }, ended(statusFacts()), {
    type: 'scheduleFailed',
    error: 'bad object',
    now: T0 + 2_000,
  });
  assert.equal(types(r.effects), ['countTrigger', 'startPass', 'readSchedule', 'logSchedule', 'record', 'settle']);
  assert.equal(r.effects[3], { type: 'logSchedule', error: 'bad object' });
  assert.is(r.state.memory.catchUp, undefined, 'the status pass saw everything healthy');
  assert.equal(r.state.phase, { name: 'idle' });
});

test('stop on an idle reconciler disarms the wake and is drained at once; later triggers are counted and start nothing', () => {
  const r = feed(
    afterOneFullPass(),
    { type: 'stop' },
    { type: 'webhook' },
    { type: 'kick', reason: 'late', kind: 'full' },
  );
  assert.equal(types(r.effects), ['clearWake', 'drained', 'countTrigger', 'countTrigger']);
  assert.equal(r.covers, [undefined, undefined, undefined], 'a kick after stop waits for nothing');
  assert.equal(r.state.phase, { name: 'stopped' });
});

test('stop waits for the running pass (and its afterPass hook), drops the queued one, and plans nothing after it', () => {
  const running = feed(fresh(), { type: 'refChanged' }, { type: 'webhook' }).state;
  const stopping = feed(running, { type: 'stop' }, { type: 'resyncTick' });
  assert.equal(types(stopping.effects), ['clearWake', 'countTrigger']);
  assert.equal(stopping.covers, [undefined, undefined]);
  assert.is(stopping.state.phase.name, 'stopping');
  const over = feed(stopping.state, ended(fullFacts()));
  assert.equal(types(over.effects), ['record', 'afterPass', 'settle', 'drained'], 'no schedule read, no queued pass');
  assert.equal(
    over.effects[2],
    { type: 'settle', passes: [1, 2] },
    'the kicks waiting for the dropped pass are released too',
  );
  assert.equal(over.state.phase, { name: 'stopped' });
});

test('a schedule read that ends after stop arms no wake and queues no pass', () => {
  const planning = feed(fresh(), { type: 'statusPeriod' }, ended(statusFacts({ wroteStatus: true }))).state;
  const r = feed(
    planning,
    { type: 'stop' },
    read(
      schedule({ clusterStateKey: 'changed', deadlines: [{ at: T0 + 5_000, kind: 'full', reason: 'failover-check' }] }),
    ),
  );
  assert.equal(types(r.effects), ['clearWake', 'record', 'settle', 'drained']);
  assert.equal(r.effects[1], {
    type: 'record',
    pass: { id: 1, kind: 'status', reasons: ['status-update'] },
    outcome: 'outcome',
  });
  assert.equal(r.state.phase, { name: 'stopped' });
});

test('the members a pass probed are the ones whose Ready flips the next schedule read looks at; a failed full pass keeps the key it read', () => {
  const r = feed(
    fresh(),
    { type: 'refChanged' },
    ended({ kind: 'full', ok: false, startedAt: T0, renderedKey: 'seen', probed: new Set(['member1', 'member2']) }),
  );
  assert.equal(r.effects.at(-1), { type: 'readSchedule', probed: new Set(['member1', 'member2']) });
  assert.is(r.state.memory.renderedKey, 'seen');
  assert.equal(r.state.memory.lastStarted, { full: T0, status: 0 });
});

test.run();
