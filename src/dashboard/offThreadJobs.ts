import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { openRepo } from '../commits/openRepo.ts';
import { RevNotFoundError } from '../commits/RevNotFoundError.ts';
import { statusBranchAutoscaled } from '../outputs/autoscaledTemplates.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import { readPlan } from '../plans/readPlan.ts';
import { planJson } from '../plans/renderPlanJson.ts';
import { readExplanations } from '../views/readExplanations.ts';
import { validationItems } from './readAttention.ts';

/** Work the dashboard hands to a thread of its own: plain data, as a worker receives it. */
export type OffThreadJob =
  /** `flotilla plan -o json` of two resolved commits, with the status branch's cluster state and decisions. */
  | { kind: 'plan'; gitdir: string; base: string; head: string; limits?: RenderLimits }
  /** The validation errors of a source commit: the whole commit rendered against the rendered branch. */
  | { kind: 'validation'; gitdir: string; source: string; renderedRef: string; now: string; limits?: RenderLimits };

/** What the job's thread posts back: the answer as JSON bytes (newline-terminated), or why there is none. */
export type OffThreadReply =
  | { ok: true; json: Uint8Array }
  | { ok: false; message: string; code: string | null; status: number | null };

/** Runs a job where it is called (the worker calls it); the answer is the JSON the dashboard sends as it is. */
export async function answerJob(job: OffThreadJob): Promise<Uint8Array> {
  const repo = await openRepo(job.gitdir);
  const limits = job.limits ? { limits: job.limits } : {};
  let answer: unknown;
  if (job.kind === 'plan') {
    const plan = await readPlan(repo, {
      base: job.base,
      head: job.head,
      clusterStatus: await readObservedClusters(repo, DEFAULT_STATUS_REF),
      autoscaled: await statusBranchAutoscaled(repo),
      fromRender: true,
      ...limits,
    });
    answer = planJson(plan);
  } else {
    const { model, output } = await readExplanations(repo, {
      rev: job.source,
      outputRef: job.renderedRef,
      now: new Date(job.now),
      ...limits,
    });
    answer = validationItems([...model.problems, ...output.problems]);
  }
  // Its own ArrayBuffer (never node's shared pool), so the thread can transfer it rather than copy it.
  return new TextEncoder().encode(`${JSON.stringify(answer)}\n`);
}

/** A job's failure as its reply: the message, and the status a request gets for what was asked (null: the server's). */
export function failedReply(err: unknown): OffThreadReply {
  const e = err as Error & { code?: unknown };
  return {
    ok: false,
    message: e?.message ?? String(err),
    code: typeof e?.code === 'string' ? e.code : null,
    status: err instanceof SourceTooLargeError ? 422 : err instanceof RevNotFoundError ? 404 : null,
  };
}
