import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { OffThreadJob, OffThreadReply } from './offThreadJobs.ts';

/**
 * Heap one job's thread may use unless told otherwise: a plan of 100 clusters × 1,000 Deployments, each on every
 * cluster (100,000 manifests a revision), needs between 256 and 384 MB. Past this a plan fails alone, with the reason,
 * instead of the reconciler it shares the process with running out of memory.
 */
export const DEFAULT_JOB_MEMORY_MB = 1024;

/**
 * Jobs that render whole commits (a plan, the validation list), each on a thread of its own started for it: seconds of
 * CPU that would otherwise hold the process's event loop, where /healthz, webhooks, the reconciler's syncs and the
 * applier wait their turn. The thread's heap is bounded (resourceLimits), and it ends with its answer, so what it held
 * is given back at once. `close` ends every thread still running.
 */
export class OffThreadJobs {
  readonly #memoryMb: number;
  readonly #running = new Set<Worker>();
  #closed = false;

  constructor(memoryMb = DEFAULT_JOB_MEMORY_MB) {
    this.#memoryMb = memoryMb;
  }

  /** The job's JSON answer; an Error with `status` (and `code`) when it fails, saying why. */
  run(job: OffThreadJob): Promise<Buffer> {
    if (this.#closed) return Promise.reject(closing(job));
    return new Promise<Buffer>((resolve, reject) => {
      const worker = new Worker(BOOT, {
        eval: true,
        // Not the process's flags: a --max-old-space-size there is not this thread's bound, resourceLimits is.
        execArgv: [],
        workerData: { job, ...ENTRY },
        resourceLimits: { maxOldGenerationSizeMb: this.#memoryMb },
      });
      this.#running.add(worker);
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
        void worker.terminate();
      };
      worker.on('message', (reply: OffThreadReply) =>
        settle(() =>
          reply.ok
            ? resolve(Buffer.from(reply.json.buffer, reply.json.byteOffset, reply.json.byteLength))
            : reject(failed(job, reply)),
        ),
      );
      worker.on('error', (err: Error & { code?: string }) =>
        settle(() =>
          reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(job, this.#memoryMb) : crashed(job, err)),
        ),
      );
      worker.on('exit', (code) => {
        this.#running.delete(worker);
        settle(() =>
          reject(this.#closed ? closing(job) : crashed(job, new Error(`its thread ended with code ${code}`))),
        );
      });
    });
  }

  /** Ends every job's thread; their requests are answered 503, and so is any asked from now on. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#running].map((w) => w.terminate()));
  }
}

/**
 * The thread loads offThreadWorker from beside this file: src/…/x.ts run through tsx (`node --import tsx`, or
 * bin/flotilla.js registering it in a checkout), or dist/…/x.js. A thread does not inherit a loader registered in code,
 * so for the .ts entry it registers tsx itself.
 */
const ENTRY = (() => {
  const ext = path.extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./offThreadWorker${ext}`, import.meta.url).href;
  return ext === '.ts' ? { entry, tsx: import.meta.resolve('tsx/esm/api') } : { entry, tsx: null };
})();

const BOOT = `const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})();`;

function what(job: OffThreadJob): string {
  return job.kind === 'plan'
    ? `the plan of ${job.base.slice(0, 12)}..${job.head.slice(0, 12)}`
    : `validating source commit ${job.source.slice(0, 12)}`;
}

/** The same answer from a process of its own: the CLI, bounded only by the machine. */
function elsewhere(job: OffThreadJob): string {
  return job.kind === 'plan'
    ? `run flotilla plan --base ${job.base} --head ${job.head}, which renders in a process of its own`
    : `run flotilla validate --rev ${job.source}, which renders in a process of its own`;
}

function failed(job: OffThreadJob, reply: Extract<OffThreadReply, { ok: false }>): Error {
  // A failure that is the request's (a commit too large to read, a revision gone) says so in its own words.
  const message = reply.status ? reply.message : `${what(job)} failed: ${reply.message}`;
  return Object.assign(new Error(message), reply.status ? { status: reply.status } : {}, { code: reply.code });
}

function outOfMemory(job: OffThreadJob, memoryMb: number): Error {
  return Object.assign(
    new Error(
      `${what(job)} needed more than ${memoryMb} MB, what the dashboard gives one render beside the reconciler; ${elsewhere(job)}`,
    ),
    { status: 422, code: 'ERR_WORKER_OUT_OF_MEMORY' },
  );
}

function crashed(job: OffThreadJob, err: Error): Error {
  return Object.assign(new Error(`${what(job)} failed: ${err.message}`), {
    code: (err as { code?: string }).code ?? null,
  });
}

function closing(job: OffThreadJob): Error {
  return Object.assign(new Error(`the dashboard is closing: ${what(job)} was not finished; ${elsewhere(job)}`), {
    status: 503,
  });
}
