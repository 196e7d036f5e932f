import { Worker } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';
import { DEFLATE } from './buildPack.ts';

/** Where an object's compressed bytes land once they exist. */
export interface DeflateSlot {
  deflated: Buffer;
}

/**
 * Deflates a pack's objects on a second thread while the caller goes on rendering: compression is about a tenth of
 * a cold render's CPU, and needs nothing but the bytes. Contents are copied into 1 MiB batches, each transferred to
 * one worker (plain JavaScript, so it starts in milliseconds), which sends back the compressed bytes of the batch in
 * one buffer. A pack smaller than one batch (any incremental sync) starts no worker: it is deflated on this thread
 * when drained, as before. When the worker is more than MAX_QUEUED_BATCHES behind, this thread compresses the next
 * batch itself, so raw bytes waiting on the worker stay bounded (peak RSS). Same zlib, same options: the bytes are
 * those deflateSync gives here.
 */
export class DeflateOffload {
  #worker: Worker | null = null;
  #batch = newBatch();
  #inflight = new Map<number, DeflateSlot[]>();
  #nextId = 0;
  #failure: Error | null = null;
  #settled: (() => void) | null = null;
  /**
   * Batches the worker has finished, counted by the worker itself: replies are only read when this thread yields,
   * which a render does not do while it packs, so this is how it sees the worker falling behind.
   */
  #done = new Int32Array(new SharedArrayBuffer(4));
  #sent = 0;

  /** Queues `content` (copied: the caller may drop it); `slot.deflated` is set by the time drain() resolves. */
  add(slot: DeflateSlot, content: Uint8Array): void {
    if (this.#batch.used + content.byteLength > this.#batch.bytes.length) {
      if (this.#batch.slots.length > 0) this.#send(); // a full batch: from now on this pack is compressed by the worker
      this.#batch = newBatch(Math.max(BATCH_BYTES, content.byteLength));
    }
    this.#batch.bytes.set(content, this.#batch.used);
    this.#batch.used += content.byteLength;
    this.#batch.ends.push(this.#batch.used);
    this.#batch.slots.push(slot);
  }

  /** Waits until every slot added has its bytes, then ends the worker. Throws when the worker failed. */
  async drain(): Promise<void> {
    if (this.#failure) throw new Error(`deflate worker failed: ${this.#failure.message}`, { cause: this.#failure });
    if (this.#worker && this.#batch.slots.length > 0) this.#send();
    else deflateHere(this.#batch);
    this.#batch = newBatch();
    while (this.#inflight.size > 0 && !this.#failure) await new Promise<void>((resolve) => (this.#settled = resolve));
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
    const failure = this.#failure as Error | null; // set by the error listener while we waited
    // The raw bytes of a lost batch are gone: this offload stays failed, so no pack is ever written without them.
    if (failure) throw new Error(`deflate worker failed: ${failure.message}`, { cause: failure });
  }

  /** Drops whatever is queued and ends the worker: for a pack that will not be written. */
  async discard(): Promise<void> {
    this.#batch = newBatch();
    this.#inflight.clear();
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }

  #send(): void {
    const batch = this.#batch;
    this.#batch = newBatch();
    // Raw bytes queued on the worker are memory the fleet did not need before: past a bound, compress here instead.
    if (this.#sent - Atomics.load(this.#done, 0) >= MAX_QUEUED_BATCHES) {
      deflateHere(batch);
      return;
    }
    this.#sent++;
    const id = this.#nextId++;
    this.#inflight.set(id, batch.slots);
    // Transferred, not copied: after this, the raw bytes live only on the worker until they are compressed.
    const bytes = batch.bytes.subarray(0, batch.used);
    this.#workerFor().postMessage({ id, bytes, ends: batch.ends }, [bytes.buffer as ArrayBuffer]);
  }

  #workerFor(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { options: DEFLATE, done: this.#done },
    });
    worker.unref(); // a writer dropped without a flush never keeps the process alive
    worker.on('message', ({ id, out, ends }: { id: number; out: Uint8Array; ends: number[] }) => {
      const slots = this.#inflight.get(id);
      if (!slots) return;
      const arena = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      let start = 0;
      slots.forEach((slot, i) => {
        slot.deflated = arena.subarray(start, ends[i]);
        start = ends[i]!;
      });
      this.#inflight.delete(id);
      if (this.#inflight.size === 0) this.#wake();
    });
    worker.on('error', (err) => {
      this.#failure = err;
      this.#wake();
    });
    return (this.#worker = worker);
  }

  #wake(): void {
    const settled = this.#settled;
    this.#settled = null;
    settled?.();
  }
}

const BATCH_BYTES = 1024 * 1024;
/** At most this many batches (8 MiB raw) wait on the worker. Fewer, larger messages: each one costs the thread that sends it. */
const MAX_QUEUED_BATCHES = 8;

interface Batch {
  bytes: Uint8Array;
  used: number;
  ends: number[];
  slots: DeflateSlot[];
}

/** Empty batches have no buffer yet: a PackWriter that never adds allocates nothing. */
function newBatch(size = 0): Batch {
  return { bytes: new Uint8Array(size), used: 0, ends: [], slots: [] };
}

/**
 * A batch compressed on this thread (too small to be worth a worker, or the worker is behind), into one dense
 * buffer like the worker's replies: zlib's own results sit in 4 KiB-or-larger backing stores.
 */
function deflateHere(batch: Batch): void {
  const parts: Buffer[] = [];
  let start = 0;
  for (const end of batch.ends) {
    parts.push(deflateSync(batch.bytes.subarray(start, end), DEFLATE));
    start = end;
  }
  // Not Buffer.concat: a small result would come from node's shared pool and keep a whole slab alive.
  const arena = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) at += part.copy(arena, at);
  at = 0;
  batch.slots.forEach((slot, i) => {
    slot.deflated = arena.subarray(at, (at += parts[i]!.length));
  });
}

// The worker: each message is a batch (one buffer, end offsets); the reply is the compressed objects end to end.
const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads');
const { deflateSync } = require('node:zlib');
parentPort.on('message', ({ id, bytes, ends }) => {
  const parts = [];
  let start = 0;
  let total = 0;
  for (const end of ends) {
    const part = deflateSync(bytes.subarray(start, end), workerData.options);
    parts.push(part);
    total += part.length;
    start = end;
  }
  const out = new Uint8Array(total);
  const outEnds = [];
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
    outEnds.push(at);
  }
  Atomics.add(workerData.done, 0, 1);
  parentPort.postMessage({ id, out, ends: outEnds }, [out.buffer]);
});`;
