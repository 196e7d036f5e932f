// The Events of `describe federatedhpa`, where Karmada's controller records them on the FederatedHPA: here each status
// commit that changed the decision file is what the controller did in that pass. A rescale is SuccessfulRescale
// ("New size: N; reason: R"); a condition that turned False is the Warning Karmada records beside it, with the
// reason and message of that event (the condition's message without the controller's preamble). Karmada repeats a
// warning every sync period (kubectl folds the repeats into one row); a decision file changes once, so one row here.
import type { AutoscalerDecisionFile } from '../branches/status/autoscalerDecisions.ts';
import type { HpaCondition } from '../api/conditions.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { printable } from './printTable.ts';
import { eventTableLines } from './commitEvents.ts';

/** One version of the decision file, as a status commit wrote it; `before` is the file in its parent (null: none). */
export interface DecisionVersion {
  /** The status commit's time, ms since the epoch. */
  at: number;
  file: AutoscalerDecisionFile | null;
  before: AutoscalerDecisionFile | null;
}

export interface FhpaEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  at: number;
  message: string;
}

/**
 * Each False condition's event, as federatedhpa_controller.go records it: the event reason (FailedGetBindings where
 * the condition says FailedGetBinding) and the condition message's preamble its event does not carry.
 */
const WARNINGS: Record<string, { event?: string; preamble: string }> = {
  FailedGetScaleTargetRef: { preamble: 'the HPA controller was unable to get the target reference object: ' },
  FailedGetBinding: {
    event: 'FailedGetBindings',
    preamble: 'the HPA controller was unable to get the binding by scaleTargetRef: ',
  },
  FailedGetTargetClusters: { preamble: 'the HPA controller was unable to get the target clusters from binding: ' },
  FailedGetScale: { preamble: "the HPA controller was unable to get the target's current scale: " },
  FailedUpdateScale: { event: 'FailedRescale', preamble: 'the HPA controller was unable to update the target scale: ' },
  AmbiguousSelector: { preamble: '' },
  InvalidSelector: { preamble: '' },
};
const METRIC_PREAMBLE = 'the HPA was unable to compute the replica count: ';

function warning(c: HpaCondition, at: number): FhpaEvent | undefined {
  const known = WARNINGS[c.reason];
  if (known) {
    const message = c.message.startsWith(known.preamble) ? c.message.slice(known.preamble.length) : c.message;
    return { type: 'Warning', reason: known.event ?? c.reason, at, message };
  }
  // FailedGet<Type>Metric and the like: getUnableComputeReplicaCountCondition records the metric's own error.
  if (c.message.startsWith(METRIC_PREAMBLE))
    return { type: 'Warning', reason: c.reason, at, message: c.message.slice(METRIC_PREAMBLE.length) };
  return undefined;
}

/** The events one status commit's version of the decision file stands for. Pure. */
function eventsOf(v: DecisionVersion): FhpaEvent[] {
  const { file, before, at } = v;
  if (!file) return [];
  const out: FhpaEvent[] = [];
  const wasFalse = new Set(
    (before?.conditions ?? []).filter((c) => c.status === 'False').map((c) => `${c.type}/${c.reason}`),
  );
  for (const c of file.conditions ?? []) {
    if (c.status !== 'False' || wasFalse.has(`${c.type}/${c.reason}`)) continue;
    const e = warning(c, at);
    if (e) out.push(e);
  }
  // setStatus moves lastScaleTime only on a rescale: a new one is a SuccessfulRescale in that pass.
  if (file.lastScaleTime !== undefined && file.lastScaleTime !== before?.lastScaleTime)
    out.push({
      type: 'Normal',
      reason: 'SuccessfulRescale',
      at,
      message: `New size: ${file.desiredReplicas}; reason: ${file.reason}`,
    });
  return out;
}

/** The events of these versions (any order), oldest first as kubectl describe sorts them. Pure. */
export function federatedHpaEvents(versions: readonly DecisionVersion[]): FhpaEvent[] {
  return versions.flatMap(eventsOf).sort((a, b) => a.at - b.at);
}

/** The Events section: Type, Reason, Age, From, Message, as kubectl describe prints an object's events. Pure. */
export function federatedHpaEventLines(events: readonly FhpaEvent[], now: Date): string[] {
  if (events.length === 0) return ['Events:            <none>'];
  return eventTableLines(
    events.map((e) => [
      e.type,
      e.reason,
      humanDuration(now.getTime() - e.at),
      'federatedHPA-controller',
      printable(e.message),
    ]),
  );
}
