import type { PassKind } from './createPassQueue.ts';
import { planAfterPass } from './planAfterPass.ts';
import type {
  PassFacts,
  PassRequest,
  ReconcilerEffect,
  ReconcilerEvent,
  ReconcilerMemory,
  ReconcilerState,
} from './reconcilerStates.ts';

export interface Transition<O> {
  readonly state: ReconcilerState<O>;
  /** In order: the shell runs each before the next. */
  readonly effects: readonly ReconcilerEffect<O>[];
  /** For an event that asks for a pass: the pass that covers it (the one it started or joined); none once stopping. */
  readonly covers?: number;
}

/** The trigger each outside event stands for, as logged in a pass's `reasons` and counted in flotilla_triggers_total. */
const TRIGGERS = {
  refChanged: { reason: 'push', kind: 'full' },
  cronTick: { reason: 'fetch', kind: 'full' },
  webhook: { reason: 'webhook', kind: 'full' },
  resyncTick: { reason: 'resync', kind: 'full' },
  statusPeriod: { reason: 'status-update', kind: 'status' },
} as const satisfies Record<string, { reason: string; kind: PassKind }>;

/**
 * The reconciler's transition (pure). Single flight: at most one pass runs; a trigger that arrives during a pass
 * queues exactly one more, which every later trigger shares (the pass reads Git afresh, so it covers them all) and
 * which is full when any of them asked for a full one. After a pass the schedule Git shows is read and planned
 * (planAfterPass) before the queued pass starts. Stop drops what is queued and waits for the running pass.
 */
export function planTransition<O>(state: ReconcilerState<O>, event: ReconcilerEvent<O>): Transition<O> {
  switch (event.type) {
    case 'kick':
      return request(state, event.reason, event.kind);
    case 'refChanged':
    case 'cronTick':
    case 'webhook':
    case 'resyncTick':
    case 'statusPeriod':
      return request(state, TRIGGERS[event.type].reason, TRIGGERS[event.type].kind);
    case 'deadline':
      return request({ ...state, memory: { ...state.memory, wake: undefined } }, event.reason, event.kind);
    case 'passEnded':
      return passEnded(state, event);
    case 'scheduleRead':
    case 'scheduleFailed':
      return planned(state, event);
    case 'stop':
      return stop(state);
  }
}

function request<O>(state: ReconcilerState<O>, reason: string, kind: PassKind): Transition<O> {
  const counted: ReconcilerEffect<O> = { type: 'countTrigger', trigger: reason };
  const { phase, memory } = state;
  if (phase.name === 'idle') {
    const pass: PassRequest = { id: memory.nextPassId, kind, reasons: [reason] };
    return {
      state: { ...state, phase: { name: 'running', pass }, memory: { ...memory, nextPassId: memory.nextPassId + 1 } },
      effects: [counted, { type: 'startPass', pass }],
      covers: pass.id,
    };
  }
  if (phase.name !== 'running') return { state, effects: [counted] };
  const queued = phase.queued ? join(phase.queued, reason, kind) : { id: memory.nextPassId, kind, reasons: [reason] };
  return {
    state: {
      ...state,
      phase: { ...phase, queued },
      memory: phase.queued ? memory : { ...memory, nextPassId: memory.nextPassId + 1 },
    },
    effects: [counted],
    covers: queued.id,
  };
}

function join(queued: PassRequest, reason: string, kind: PassKind): PassRequest {
  return {
    id: queued.id,
    kind: kind === 'full' ? 'full' : queued.kind,
    reasons: queued.reasons.includes(reason) ? queued.reasons : [...queued.reasons, reason],
  };
}

/**
 * A pass is recorded once its log line is complete: a full pass, or a failed one, as soon as it is over (the plan
 * is logged as its own `schedule` line), before the afterPass hook and the schedule read see it; a status pass that
 * succeeded once planned, since its line says what comes next.
 */
function recordedAtEnd(pass: PassRequest, facts: PassFacts): boolean {
  return pass.kind === 'full' || !facts.ok;
}

function passEnded<O>(
  state: ReconcilerState<O>,
  event: Extract<ReconcilerEvent<O>, { type: 'passEnded' }>,
): Transition<O> {
  const { phase } = state;
  if ((phase.name !== 'running' && phase.name !== 'stopping') || phase.ended) return { state, effects: [] };
  const { facts, outcome } = event;
  const memory: ReconcilerMemory = {
    ...state.memory,
    lastStarted: { ...state.memory.lastStarted, [facts.kind]: facts.startedAt },
    renderedKey: facts.renderedKey ?? state.memory.renderedKey,
    probed: facts.probed ?? state.memory.probed,
  };
  const effects: ReconcilerEffect<O>[] = [];
  if (recordedAtEnd(phase.pass, facts) || phase.name === 'stopping')
    effects.push({ type: 'record', pass: phase.pass, outcome });
  if (phase.pass.kind === 'full') effects.push({ type: 'afterPass' });
  if (phase.name === 'stopping') {
    return {
      state: { ...state, phase: { name: 'stopped' }, memory },
      effects: [...effects, settle(phase.pass, phase.dropped), { type: 'drained' }],
    };
  }
  return {
    state: { ...state, phase: { ...phase, ended: { facts, outcome } }, memory },
    effects: [...effects, { type: 'readSchedule', probed: memory.probed }],
  };
}

/** The schedule after a pass: queue what is due, arm or disarm the wake, log, then start the queued pass. */
function planned<O>(
  state: ReconcilerState<O>,
  event: Extract<ReconcilerEvent<O>, { type: 'scheduleRead' | 'scheduleFailed' }>,
): Transition<O> {
  const { phase } = state;
  if ((phase.name !== 'running' && phase.name !== 'stopping') || !phase.ended) return { state, effects: [] };
  const { pass, ended } = phase;
  const record = (next?: string): ReconcilerEffect<O>[] =>
    recordedAtEnd(pass, ended.facts)
      ? next
        ? [{ type: 'logSchedule', next }]
        : []
      : [{ type: 'record', pass, outcome: ended.outcome, ...(next ? { next } : {}) }];
  const logError: ReconcilerEffect<O>[] =
    event.type === 'scheduleFailed' ? [{ type: 'logSchedule', error: event.error }] : [];
  // Stopping: what the schedule says is for a reconciler that goes on; none is armed or queued after stop.
  if (phase.name === 'stopping') {
    return {
      state: { ...state, phase: { name: 'stopped' } },
      effects: [...logError, ...record(), settle(pass, phase.dropped), { type: 'drained' }],
    };
  }

  const plan = planAfterPass(
    state.memory,
    ended.facts,
    event.type === 'scheduleRead' ? event.schedule : undefined,
    event.now,
    state.catchUpTiming,
  );
  let { memory } = plan;
  let queued = phase.queued;
  const effects: ReconcilerEffect<O>[] = [...logError];
  if (plan.due) {
    effects.push({ type: 'countTrigger', trigger: plan.due });
    queued = queued ? join(queued, plan.due, 'full') : { id: memory.nextPassId, kind: 'full', reasons: [plan.due] };
    if (!phase.queued) memory = { ...memory, nextPassId: memory.nextPassId + 1 };
  } else if (event.type === 'scheduleRead') {
    effects.push(plan.wake ? { type: 'setWake', ...plan.wake } : { type: 'clearWake' });
  }
  effects.push(...record(plan.next));
  if (!queued) return { state: { ...state, phase: { name: 'idle' }, memory }, effects: [...effects, settle(pass)] };
  return {
    state: { ...state, phase: { name: 'running', pass: queued }, memory },
    effects: [...effects, { type: 'startPass', pass: queued }, settle(pass)],
  };
}

function stop<O>(state: ReconcilerState<O>): Transition<O> {
  const { phase } = state;
  const memory = { ...state.memory, wake: undefined };
  if (phase.name === 'idle')
    return {
      state: { ...state, phase: { name: 'stopped' }, memory },
      effects: [{ type: 'clearWake' }, { type: 'drained' }],
    };
  if (phase.name !== 'running') return { state, effects: [] };
  const stopping = {
    name: 'stopping' as const,
    pass: phase.pass,
    ...(phase.ended ? { ended: phase.ended } : {}),
    ...(phase.queued ? { dropped: phase.queued } : {}),
  };
  return { state: { ...state, phase: stopping, memory }, effects: [{ type: 'clearWake' }] };
}

function settle<O>(pass: PassRequest, dropped?: PassRequest): ReconcilerEffect<O> {
  return { type: 'settle', passes: dropped ? [pass.id, dropped.id] : [pass.id] };
}
