// The entry of a dashboard job's thread (started by runOffThread): one job from workerData, one reply, then the
// thread is ended by the side that started it.
import { parentPort, workerData } from 'node:worker_threads';
import { answerJob, failedReply, type OffThreadJob, type OffThreadReply } from './offThreadJobs.ts';

const job = (workerData as { job: OffThreadJob }).job;
answerJob(job).then(
  (json) => {
    const reply: OffThreadReply = { ok: true, json };
    // Transferred: a plan's answer can be megabytes, and a copy would be the main thread's work.
    parentPort!.postMessage(reply, [json.buffer as ArrayBuffer]);
  },
  (err: unknown) => parentPort!.postMessage(failedReply(err)),
);
