import { ENDPOINTS_FOLDER } from '../branches/status/exportedEndpoints.ts';
import { AUTOSCALERS_FOLDER, CRON_AUTOSCALERS_FOLDER } from '../branches/status/autoscalerDecisions.ts';
import { SYNCED_REPLICAS_FOLDER } from '../branches/status/syncedReplicas.ts';
import { nextDeadline, type PassSchedule } from './readPassSchedule.ts';
import type { CatchUpTiming, DueReason, PassFacts, ReconcilerMemory, Wake } from './reconcilerStates.ts';

/** setTimeout holds at most ~24.8 days; a later deadline is looked at again by the passes in between. */
const MAX_WAKE_DELAY_MS = 86_400_000;
/** A little after a deadline: Git's times have second precision and timers may fire a millisecond early. */
const DEADLINE_SLACK_MS = 50;

export interface AfterPassPlan {
  readonly memory: ReconcilerMemory;
  /** A full pass due at once; the armed wake is left as it is (the due pass plans again). */
  readonly due?: DueReason;
  /** Otherwise the wake to arm (none, with a schedule: disarm it) and how long until it fires. */
  readonly wake?: { readonly wake: Wake; readonly delayMs: number };
  /** What comes next, as logged (`next`). */
  readonly next?: string;
}

/**
 * After every pass, inside the single flight (pure): what is due now (a render for a changed cluster state, an
 * apply for drift, a render that may end graceful evictions, a retry of what could not be scheduled), else when the
 * next pass is due by time alone. `memory` already holds the pass's start, rendered key and probed members.
 * Without a schedule (it could not be read) only the catch-up window follows the pass; the wake stays as it is.
 */
export function planAfterPass(
  memory: ReconcilerMemory,
  facts: PassFacts,
  schedule: PassSchedule | undefined,
  now: number,
  timing: CatchUpTiming,
): AfterPassPlan {
  const catchUp = followCatchUp(memory.catchUp, facts, now, timing);
  if (!schedule) return { memory: { ...memory, catchUp } };
  let { lastDrift, lastRetry } = memory;
  let due: DueReason | undefined;
  if (facts.ok && facts.wroteStatus && schedule.clusterStateKey !== memory.renderedKey) due = 'cluster-state';
  if (!due && facts.ok && facts.kind === 'status') {
    const drift = [...facts.missing].sort().join('\n');
    if (drift && drift !== lastDrift) due = 'drift';
    lastDrift = drift;
  }
  // Replacements reported healthy may end graceful evictions, whichever pass wrote that status: a status pass, or
  // the full pass itself when the pods came up during it.
  const statusPaths = facts.ok ? facts.statusPaths : [];
  if (!due && statusPaths.some((p) => p.startsWith('templates/')) && schedule.gracefulEvictions)
    due = 'graceful-eviction';
  // An exporter's endpoints changed on the status branch: the importers' derived slices are applied by a full pass
  // now, so endpoints reach them within one status period. It converges: the next collection finds no change.
  if (!due && statusPaths.some((p) => p.startsWith(ENDPOINTS_FOLDER))) due = 'endpoints';
  // A FederatedHPA decided another count, or the members' HPAs' count was synced: the full pass renders the
  // workload with it and applies the division.
  if (
    !due &&
    statusPaths.some(
      (p) =>
        p.startsWith(AUTOSCALERS_FOLDER) ||
        p.startsWith(CRON_AUTOSCALERS_FOLDER) ||
        p.startsWith(SYNCED_REPLICAS_FOLDER),
    )
  )
    due = 'autoscaler';
  // What could not be scheduled is tried again as soon as the status branch shows what may let it fit, whoever wrote
  // that status (this reconciler's passes, or a Pull agent); the same retry with the same reasons only once.
  if (!due) {
    const retry = [...schedule.retry.values()].join('\n');
    if (retry && retry !== lastRetry) due = 'pending-binding';
    lastRetry = retry;
  }
  const after = { ...memory, catchUp, lastDrift, lastRetry };
  if (due) return { memory: after, due, next: `full pass (${due})` };

  const deadline = nextDeadline(schedule.deadlines, memory.lastStarted);
  let wake: Wake | undefined = deadline
    ? { at: deadline.at + DEADLINE_SLACK_MS, reason: deadline.reason, kind: deadline.kind }
    : undefined;
  if (catchUp && (!wake || now + timing.intervalMs < wake.at))
    wake = { at: now + timing.intervalMs, reason: 'catch-up', kind: 'status' };
  if (!wake) return { memory: { ...after, wake: undefined } };
  const cluster = deadline?.cluster && wake.reason === 'ready-flip' ? ` for ${deadline.cluster}` : '';
  return {
    memory: { ...after, wake },
    wake: { wake, delayMs: Math.min(Math.max(0, wake.at - now), MAX_WAKE_DELAY_MS) },
    next: `${wake.kind} pass (${wake.reason}) at ${new Date(wake.at).toISOString()}${cluster}`,
  };
}

/**
 * A pass that wrote to members opens a catch-up window over what it touched; a status pass closes it once none of
 * those objects is missing or unhealthy, or the window is over. A failed pass changes nothing.
 */
function followCatchUp(
  catchUp: ReconcilerMemory['catchUp'],
  facts: PassFacts,
  now: number,
  timing: CatchUpTiming,
): ReconcilerMemory['catchUp'] {
  if (!facts.ok) return catchUp;
  if (facts.kind === 'full') {
    if (facts.writes === 0) return catchUp;
    return facts.touched.length > 0 ? { touched: new Set(facts.touched), until: now + timing.forMs } : undefined;
  }
  if (!catchUp) return undefined;
  const waiting = [...facts.unhealthy, ...facts.missing].some((key) => catchUp.touched.has(key));
  return !waiting || now >= catchUp.until ? undefined : catchUp;
}
