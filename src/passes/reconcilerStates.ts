import type { PassKind } from './createPassQueue.ts';
import type { PassSchedule } from './readPassSchedule.ts';

/**
 * The reconciler's vocabulary: its states, the events that move it and the effects it asks of its I/O shell. The
 * transition (planTransition) is pure; startReconciler runs the effects (passes, timers, logs, metrics) and feeds
 * their results back as events. `O` is a pass's outcome as the shell records it; the machine only carries it from
 * the pass that produced it to the one place that records it.
 */

/** One pass the machine started or will start: what kind, and every trigger it covers (first come first). */
export interface PassRequest {
  readonly id: number;
  readonly kind: PassKind;
  readonly reasons: readonly string[];
}

/** What a pass found that decides what comes next, reduced to plain data (buildPassFacts derives it). */
export type PassFacts = (
  | { readonly kind: 'full'; readonly ok: false }
  | { readonly kind: 'status'; readonly ok: false }
  | {
      readonly kind: 'full';
      readonly ok: true;
      /** Writes sent to members. */
      readonly writes: number;
      /** Objects created, configured or drift-repaired (cluster + identity key): the ones catch-up follows. */
      readonly touched: readonly string[];
      readonly wroteStatus: boolean;
      readonly statusPaths: readonly string[];
    }
  | {
      readonly kind: 'status';
      readonly ok: true;
      /** Inventory objects a member no longer has (cluster + identity key): drift. */
      readonly missing: readonly string[];
      /** Objects read back that are not Healthy yet. */
      readonly unhealthy: readonly string[];
      readonly wroteStatus: boolean;
      readonly statusPaths: readonly string[];
    }
) & {
  /** Wall-clock start (ms): a deadline no later than this was seen by the pass. */
  readonly startedAt: number;
  /** The managed-taints key a full pass rendered with, once it read it (even if the pass failed later). */
  readonly renderedKey?: string;
  /** The members the pass resolved and probed, once it resolved them. */
  readonly probed?: ReadonlySet<string>;
};

/** The timer the machine keeps armed: the next pass due by time alone. */
export interface Wake {
  /** Wall clock (ms). */
  readonly at: number;
  readonly reason: DeadlineReason;
  readonly kind: PassKind;
}

/** Why a pass is due by time: a deadline Git records, or following up what the last writing pass touched. */
export type DeadlineReason =
  | 'ready-flip'
  | 'failover-check'
  | 'graceful-eviction'
  | 'application-failover'
  | 'catch-up';

/** Why a pass is due at once after another: what the status branch now shows needs a render or an apply. */
export type DueReason =
  | 'cluster-state'
  | 'drift'
  | 'graceful-eviction'
  | 'pending-binding'
  | 'endpoints'
  | 'autoscaler';

/**
 * What outlives a pass: when each kind last started, what the last render saw, the catch-up window, and the
 * drift and retries already asked for (so the same ones ask only once).
 */
export interface ReconcilerMemory {
  readonly nextPassId: number;
  readonly lastStarted: { readonly full: number; readonly status: number };
  /** The managed-taints key the last full pass rendered with: a status write that changes it needs a render. */
  readonly renderedKey: string | undefined;
  /** Objects the last member-writing pass touched, and until when status passes follow them closely. */
  readonly catchUp: { readonly touched: ReadonlySet<string>; readonly until: number } | undefined;
  /** The missing objects that last asked for a full pass: the same drift asks only once (the resync retries). */
  readonly lastDrift: string;
  /** The pending bindings (with why) that last asked for a full pass: a retry that changed nothing is not asked again. */
  readonly lastRetry: string;
  /** The members the last pass probed: only their Ready flips are this reconciler's deadlines. */
  readonly probed: ReadonlySet<string>;
  readonly wake: Wake | undefined;
}

export interface CatchUpTiming {
  readonly intervalMs: number;
  readonly forMs: number;
}

/** A pass that ran, waiting for the schedule Git shows after it. */
export interface EndedPass<O> {
  readonly facts: PassFacts;
  readonly outcome: O;
}

/**
 * idle: no pass runs. running: one pass runs (step `pass`), or it is over and the schedule after it is read
 * (step `planning`); `queued` is the one more pass every trigger since its start shares. stopping: no new pass,
 * waiting for the running one; what was queued is dropped. stopped: nothing runs, nothing will.
 */
export type ReconcilerPhase<O> =
  | { readonly name: 'idle' }
  | {
      readonly name: 'running';
      readonly pass: PassRequest;
      readonly ended?: EndedPass<O>;
      readonly queued?: PassRequest;
    }
  | {
      readonly name: 'stopping';
      readonly pass: PassRequest;
      readonly ended?: EndedPass<O>;
      readonly dropped?: PassRequest;
    }
  | { readonly name: 'stopped' };

export interface ReconcilerState<O> {
  readonly phase: ReconcilerPhase<O>;
  readonly memory: ReconcilerMemory;
  readonly catchUpTiming: CatchUpTiming;
}

/** What moves the reconciler. The machine reads no clock: the events that plan by time carry `now` (wall clock, ms). */
export type ReconcilerEvent<O> =
  /** The handle's kick(reason, kind), from a caller. */
  | { readonly type: 'kick'; readonly reason: string; readonly kind: PassKind }
  /** The watched local branch moved (its loose ref or packed-refs was written). */
  | { readonly type: 'refChanged' }
  /** The remote's fetch schedule fired. */
  | { readonly type: 'cronTick' }
  /** A verified webhook for a commit not yet processed. */
  | { readonly type: 'webhook' }
  /** The resync interval. */
  | { readonly type: 'resyncTick' }
  /** The status update period (--cluster-status-update-frequency). */
  | { readonly type: 'statusPeriod' }
  /** The armed wake fired: a deadline Git recorded (ready flip, failover check, graceful eviction end) or catch-up. */
  | { readonly type: 'deadline'; readonly reason: DeadlineReason; readonly kind: PassKind }
  /** The running pass is over. */
  | { readonly type: 'passEnded'; readonly facts: PassFacts; readonly outcome: O }
  /** The schedule read after a pass. */
  | { readonly type: 'scheduleRead'; readonly schedule: PassSchedule; readonly now: number }
  | { readonly type: 'scheduleFailed'; readonly error: string; readonly now: number }
  | { readonly type: 'stop' };

export type ReconcilerEffect<O> =
  /** Count what asked for a pass (flotilla_triggers_total), whether or not a pass follows. */
  | { readonly type: 'countTrigger'; readonly trigger: string }
  | { readonly type: 'startPass'; readonly pass: PassRequest }
  /** The one place a pass's outcome is recorded: last pass, metrics, its log line (with what comes next, when known). */
  | { readonly type: 'record'; readonly pass: PassRequest; readonly outcome: O; readonly next?: string }
  /** The caller's hook after every full pass, inside the single flight (the demo's in-process Pull agent). */
  | { readonly type: 'afterPass' }
  | { readonly type: 'readSchedule'; readonly probed: ReadonlySet<string> }
  | { readonly type: 'logSchedule'; readonly next?: string; readonly error?: string }
  /** Arm the wake (replacing any armed one) to fire after `delayMs`. */
  | { readonly type: 'setWake'; readonly wake: Wake; readonly delayMs: number }
  | { readonly type: 'clearWake' }
  /** Kicks that wait for these passes resolve: the passes are over, or will never run. */
  | { readonly type: 'settle'; readonly passes: readonly number[] }
  /** No pass runs and none will: stop may close what the passes use. */
  | { readonly type: 'drained' };

export function initialReconcilerState<O>(opts: {
  probed: ReadonlySet<string>;
  catchUpTiming: CatchUpTiming;
}): ReconcilerState<O> {
  return {
    phase: { name: 'idle' },
    memory: {
      nextPassId: 1,
      lastStarted: { full: 0, status: 0 },
      renderedKey: undefined,
      catchUp: undefined,
      lastDrift: '',
      lastRetry: '',
      probed: opts.probed,
      wake: undefined,
    },
    catchUpTiming: opts.catchUpTiming,
  };
}
