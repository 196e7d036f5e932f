/**
 * CronFederatedHPA rules evaluated between two passes (Karmada's pkg/controllers/cronfederatedhpa: one gocron job
 * per rule in its time zone; RunCronFederatedHPARule, addSuccessExecutionHistory). Karmada's jobs fire at the
 * minute; a reconciler pass looks back over the time since its last look, so a rule that fired in between takes
 * effect at the next pass, once even if it fired several times. Pure.
 */
import { intlTimeZone, lastCronRunBetween, nextCronRun, parseCronSchedule } from '../time/cronSchedule.ts';

export interface CronRule {
  name: string;
  schedule: string;
  targetReplicas?: number;
  targetMinReplicas?: number;
  targetMaxReplicas?: number;
  suspend?: boolean;
  timeZone?: string;
  successfulHistoryLimit?: number;
  failedHistoryLimit?: number;
}

/** Karmada's helper.DefaultHistoryLimit. */
export const DEFAULT_HISTORY_LIMIT = 3;

export interface SuccessfulExecution {
  scheduleTime: number;
  executionTime: number;
  appliedReplicas?: number;
  appliedMinReplicas?: number;
  appliedMaxReplicas?: number;
}

export interface FailedExecution {
  scheduleTime: number;
  executionTime: number;
  message: string;
}

export interface RuleHistory {
  ruleName: string;
  nextExecutionTime?: number;
  successfulExecutions: SuccessfulExecution[];
  failedExecutions: FailedExecution[];
}

export interface RuleFiring {
  rule: CronRule;
  scheduleTime: number;
}

export interface CronEvaluation {
  /** Rules that fired in (from, to], in schedule order: the last one of each kind wins. */
  fired: RuleFiring[];
  /** Rules that cannot run: a bad schedule or time zone (Karmada refuses them at admission). */
  invalid: { rule: string; message: string }[];
}

/** Which rules fired between the previous look (`from`) and now (`to`); suspended rules never fire. */
export function evaluateCronRules(rules: readonly CronRule[], from: number, to: number): CronEvaluation {
  const out: CronEvaluation = { fired: [], invalid: [] };
  for (const rule of rules) {
    const timeZone = intlTimeZone(rule.timeZone ?? 'UTC');
    if (timeZone === undefined) {
      out.invalid.push({ rule: rule.name, message: `unknown time zone "${rule.timeZone}"` });
      continue;
    }
    const schedule = parseCronSchedule(rule.schedule);
    if ('error' in schedule) {
      out.invalid.push({ rule: rule.name, message: `invalid schedule: ${schedule.error}` });
      continue;
    }
    if (rule.suspend) continue;
    const at = lastCronRunBetween(schedule, from, to, timeZone);
    if (at !== undefined) out.fired.push({ rule, scheduleTime: at });
  }
  out.fired.sort((a, b) => a.scheduleTime - b.scheduleTime);
  return out;
}

/** The rule's next run after `after`, in its time zone; undefined for a bad schedule or zone, or none ahead. */
export function nextRuleRun(rule: CronRule, after: number): number | undefined {
  const timeZone = intlTimeZone(rule.timeZone ?? 'UTC');
  const schedule = parseCronSchedule(rule.schedule);
  if ('error' in schedule || timeZone === undefined) return undefined;
  return nextCronRun(schedule, after, timeZone);
}

/**
 * What a rule makes of a FederatedHPA's min and max (Karmada's ScaleFHPA updates them), or why the update is refused:
 * the FederatedHPA webhook validates the updated object, so a targetMinReplicas above its maxReplicas (or a
 * targetMaxReplicas below its minReplicas) fails the run and leaves both as they were.
 */
export function fhpaLimitsAfterRule(
  current: { minReplicas?: number; maxReplicas: number },
  rule: CronRule,
): { minReplicas: number; maxReplicas: number } | { error: string } {
  const minReplicas = rule.targetMinReplicas ?? current.minReplicas ?? 1;
  const maxReplicas = rule.targetMaxReplicas ?? current.maxReplicas;
  if (maxReplicas < minReplicas)
    return {
      error: `admission webhook "federatedhpa.karmada.io" denied the request: spec.maxReplicas: Invalid value: ${maxReplicas}: must be greater than or equal to \`minReplicas\``,
    };
  return { minReplicas, maxReplicas };
}

/** What CronFederatedHPA rules set on a FederatedHPA, with Git's value of each field when they set it. */
export interface AppliedFhpaLimits {
  minReplicas?: number;
  maxReplicas?: number;
  gitMinReplicas?: number;
  gitMaxReplicas?: number;
}

/**
 * The min and max rules set that still hold over the FederatedHPA Git has now: each while Git's value of that field
 * is the one the rule ran over. A later edit of the field in Git wins, as a user's update of the FederatedHPA writes
 * over what ScaleFHPA set in Karmada; a field the user leaves alone keeps the rule's value. A record without Git's
 * value (written before it was kept) holds.
 */
export function heldFhpaLimits(
  applied: AppliedFhpaLimits | undefined,
  git: { minReplicas: number; maxReplicas: number },
): { minReplicas?: number; maxReplicas?: number } {
  const holds = (value: number | undefined, was: number | undefined, now: number) =>
    value !== undefined && (was === undefined || was === now);
  return {
    ...(holds(applied?.minReplicas, applied?.gitMinReplicas, git.minReplicas)
      ? { minReplicas: applied!.minReplicas! }
      : {}),
    ...(holds(applied?.maxReplicas, applied?.gitMaxReplicas, git.maxReplicas)
      ? { maxReplicas: applied!.maxReplicas! }
      : {}),
  };
}

/** The history with one execution added, newest first, cut to the rule's limit (addSuccess/FailedExecutionHistory). */
export function recordExecution(
  history: RuleHistory,
  rule: CronRule,
  execution: { ok: true; value: SuccessfulExecution } | { ok: false; value: FailedExecution },
): RuleHistory {
  const next = nextRuleRun(rule, execution.value.executionTime);
  if (execution.ok) {
    const limit = rule.successfulHistoryLimit ?? DEFAULT_HISTORY_LIMIT;
    return {
      ...history,
      ...(next !== undefined ? { nextExecutionTime: next } : {}),
      successfulExecutions: [execution.value, ...history.successfulExecutions].slice(0, Math.max(limit, 0)),
    };
  }
  const limit = rule.failedHistoryLimit ?? DEFAULT_HISTORY_LIMIT;
  return {
    ...history,
    ...(next !== undefined ? { nextExecutionTime: next } : {}),
    failedExecutions: [execution.value, ...history.failedExecutions].slice(0, Math.max(limit, 0)),
  };
}
