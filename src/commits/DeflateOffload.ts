import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { DEFLATE, objectHeader, TYPE_NAME } from './buildPack.ts';

/** Where an object's compressed bytes land once they exist. */
export interface DeflateSlot {
  deflated: Buffer;
  /** Its length before compression, set when it is added. */
  size?: number;
  /** For an object added with its pack type code: its id (SHA-1 of git's `type size\0` and the content)... */
  oid?: Uint8Array;
  /** ...and the CRC-32 of its pack entry (objectHeader, then the compressed bytes), as the .idx lists it. */
  crc?: number;
}

/**
 * Deflates a pack's objects on a second thread while the caller goes on rendering: compression is about a tenth of
 * a cold render's CPU, and needs nothing but the bytes. So do an object's id and its entry's CRC-32 (another tenth,
 * on the thread that renders): given its type, the same thread computes them. Contents are copied into 1 MiB batches, each transferred to
 * one worker (plain JavaScript, so it starts in milliseconds), which sends back the compressed bytes of the batch in
 * one buffer. A pack smaller than one batch (any incremental sync) starts no worker: it is deflated on this thread
 * when drained, as before. A started worker takes batches only once it is up (it says so in shared memory): until
 * then they wait here, and a drain compresses them on this thread until it is, rather than wait some 30-50 ms for a
 * thread to boot (a sync writing a few MiB of trees, at XL one template on 66 clusters, spent that long in flush).
 * A worker whose offload drained idle is kept a minute for the next offload of the process (park): a reconciler's
 * next sync finds it up. When the worker is more than MAX_QUEUED_BATCHES behind, this thread compresses the next
 * batch itself, so raw bytes waiting on the worker stay bounded (peak RSS). Same zlib, same options: the bytes are
 * those deflateSync gives here.
 *
 * `onBatch` gets each batch's slots as soon as their bytes are there (in no particular order between batches), so
 * the caller can write them out and let them go; an error it throws fails the offload (drain throws it). A render
 * gives the event loop a turn only now and then (eventLoopTurns), so replies do not wait for it: they come on a port
 * of their own, read synchronously (receiveMessageOnPort) each time a batch is sent. Otherwise compressed bytes would
 * pile up in the port's queue between two turns.
 */
export class DeflateOffload<S extends DeflateSlot = DeflateSlot> {
  readonly #onBatch: ((slots: S[]) => void) | undefined;
  /** The worker compressing for this offload, once a batch filled. */
  #thread: DeflateThread | null = null;
  #batch = newBatch<S>();
  #inflight = new Map<number, S[]>();
  /** Full batches waiting for a worker that is not up yet, oldest first. */
  #held: Batch<S>[] = [];
  #nextId = 0;
  #failure: Error | null = null;
  /** What onBatch threw (a write that failed): drain throws it as it is. */
  #handOnFailure: Error | null = null;
  /** Batches posted to the thread, beside the count it has finished (its shared[FINISHED]). */
  #sent = 0;

  constructor(onBatch?: (slots: S[]) => void) {
    this.#onBatch = onBatch;
  }

  /**
   * Queues `content` (copied: the caller may drop it); `slot.deflated` is set by the time drain() resolves, and with a
   * pack type code (TYPE_CODE) `slot.oid` and `slot.crc` too.
   */
  add(slot: S, content: Uint8Array, type = 0): void {
    this.#room(content.byteLength);
    this.#batch.bytes.set(content, this.#batch.used);
    this.#queued(slot, content.byteLength, type);
  }

  /** add() of the text's UTF-8 bytes, encoded straight into the batch: no buffer of its own per object. */
  addText(slot: S, text: string, type = 0): void {
    // At most 3 bytes per UTF-16 unit: the exact length is needed only near the end of a batch.
    if (text.length * 3 > this.#batch.bytes.length - this.#batch.used) this.#room(Buffer.byteLength(text, 'utf8'));
    this.#queued(slot, this.#batch.bytes.write(text, this.#batch.used, 'utf8'), type);
  }

  /** Room for `size` more bytes in the batch: a full one goes to the worker. */
  #room(size: number): void {
    if (this.#batch.used + size <= this.#batch.bytes.length) return;
    if (this.#batch.slots.length > 0) this.#send(); // a full batch: from now on this pack is compressed by the worker
    this.#batch = newBatch(Math.max(BATCH_BYTES, size));
  }

  #queued(slot: S, size: number, type: number): void {
    slot.size = size;
    this.#batch.used += size;
    this.#batch.ends.push(this.#batch.used);
    this.#batch.types.push(type);
    this.#batch.slots.push(slot);
  }

  /**
   * Waits until every slot added has its bytes, then lets the worker go, kept for the next offload (unless
   * `keepWorker`: more batches are coming to this one). Throws when the worker failed.
   */
  async drain(keepWorker = false): Promise<void> {
    if (this.#failure) throw new Error(`deflate worker failed: ${this.#failure.message}`, { cause: this.#failure });
    // What is left, compressed here batch by batch while a started worker boots (sooner than waiting for it, for a
    // few MiB); once it is up it takes the rest but the last batch, which this thread compresses meanwhile.
    const left = [...this.#held.splice(0), this.#batch];
    this.#batch = newBatch();
    while (left.length > 1 && !this.#workerUp()) this.#done(deflateHere(left.shift()!));
    const last = left.pop()!;
    if (left.length > 0) {
      this.#receive();
      for (const batch of left) this.#post(batch);
    }
    this.#done(deflateHere(last));
    for (;;) {
      this.#receive();
      if (this.#inflight.size === 0 || this.#failure) break;
      // Woken by the worker's notify after each batch.
      const shared = this.#thread!.shared;
      await wakeOn(shared, FINISHED, Atomics.load(shared, FINISHED));
    }
    if (!keepWorker) await this.#stop();
    const failure = this.#failure as Error | null; // set by the error listener while we waited
    // The raw bytes of a lost batch are gone: this offload stays failed, so no pack is ever written without them.
    if (failure) throw new Error(`deflate worker failed: ${failure.message}`, { cause: failure });
    if (this.#handOnFailure) throw this.#handOnFailure;
  }

  /**
   * Resolves once a started worker can take batches (false when none is started): for a caller that knows much more
   * is coming, and for tests of the worker's path.
   */
  async workerReady(): Promise<boolean> {
    while (this.#thread && !this.#workerUp() && !this.#failure) await wakeOn(this.#thread.shared, UP, 0);
    return this.#thread !== null;
  }

  /** Drops whatever is queued and ends the worker: for a pack that will not be written. */
  async discard(): Promise<void> {
    this.#batch = newBatch();
    this.#held = [];
    this.#handOnFailure = null;
    this.#inflight.clear();
    await this.#stop();
  }

  async #stop(): Promise<void> {
    const thread = this.#thread;
    const sent = this.#sent;
    this.#thread = null;
    this.#held = [];
    this.#sent = 0;
    if (!thread) return;
    thread.owner = null;
    // A worker is never ended inside zlib: node 20 aborts the whole process when a worker terminated mid-deflateSync
    // closes its stream ("close before init"), as a test discarding a busy worker's pack did one run in six. A pack
    // discarded with batches out (a render that failed) waits for them, some 20 ms each, at most MAX_QUEUED_BATCHES.
    while (!thread.exited && Atomics.load(thread.shared, FINISHED) < sent)
      await wakeOn(thread.shared, FINISHED, Atomics.load(thread.shared, FINISHED));
    if (thread.exited) return void thread.replies.close();
    const up = Atomics.load(thread.shared, UP) === 1;
    // Idle (every batch it took is done, or still booting with none sent) and sound: the next offload of this process
    // takes it as it is. A sync that drains before its worker is up leaves the next one a worker that is.
    if (!this.#failure && park(thread)) return;
    thread.replies.close();
    // One that never came up has done nothing: it ends on its own time (unref'd), not on this caller's.
    if (up) await thread.worker.terminate();
    else void thread.worker.terminate();
  }

  #workerUp(): boolean {
    return this.#thread !== null && Atomics.load(this.#thread.shared, UP) === 1;
  }

  #send(): void {
    const batch = this.#batch;
    this.#batch = newBatch();
    this.#threadFor();
    if (!this.#workerUp()) {
      this.#held.push(batch);
      // Raw bytes waiting here are memory the fleet did not need before: past a bound, compress the oldest now.
      if (this.#held.length > MAX_QUEUED_BATCHES) this.#done(deflateHere(this.#held.shift()!));
      return;
    }
    this.#postHeld();
    this.#post(batch);
  }

  #postHeld(): void {
    this.#receive();
    for (const held of this.#held.splice(0)) this.#post(held);
  }

  #post(batch: Batch<S>): void {
    // Raw bytes queued on the worker are memory the fleet did not need before: past a bound, compress here instead.
    const thread = this.#threadFor();
    if (this.#sent - Atomics.load(thread.shared, FINISHED) >= MAX_QUEUED_BATCHES) {
      this.#done(deflateHere(batch));
      return;
    }
    this.#sent++;
    const id = this.#nextId++;
    this.#inflight.set(id, batch.slots);
    // Transferred, not copied: after this, the raw bytes live only on the worker until they are compressed.
    const bytes = batch.bytes.subarray(0, batch.used);
    thread.worker.postMessage({ id, bytes, ends: batch.ends, types: batch.types }, [bytes.buffer as ArrayBuffer]);
  }

  /** Every reply the worker has posted so far, handed on now. */
  #receive(): void {
    const replies = this.#thread?.replies;
    if (!replies) return;
    for (let reply = receiveMessageOnPort(replies); reply; reply = receiveMessageOnPort(replies)) {
      const { id, out, ends, oids, crcs } = reply.message as Reply;
      const slots = this.#inflight.get(id);
      if (!slots) continue;
      const arena = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      let start = 0;
      slots.forEach((slot, i) => {
        slot.deflated = arena.subarray(start, ends[i]);
        start = ends[i]!;
        if (crcs[i] !== NO_CRC) {
          slot.oid = oids.subarray(20 * i, 20 * i + 20);
          slot.crc = crcs[i]!;
        }
      });
      this.#inflight.delete(id);
      this.#done(slots);
    }
  }

  #threadFor(): DeflateThread {
    if (this.#thread) return this.#thread;
    const thread = unpark() ?? this.#newThread();
    // The first failure is the one to report: a worker that throws also exits, and says only its exit code then.
    thread.owner = (err) => {
      this.#failure ??= err;
    };
    return (this.#thread = thread);
  }

  #newThread(): DeflateThread {
    const { port1, port2 } = new MessageChannel();
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { options: DEFLATE, shared, replies: port2 },
      transferList: [port2],
      // It holds one batch at a time, outside its heap: a small isolate reserves some 500 MB less address space than
      // a default one, which counts under a `ulimit -v` (the bench's XL runs under 16 GiB, tsx reserving most of it).
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8, codeRangeSizeMb: 16 },
    });
    worker.unref(); // a writer dropped without a flush never keeps the process alive
    const thread: DeflateThread = { worker, shared, replies: port1, owner: null, exited: false };
    const lost = (err: Error) => {
      // Its offload fails; a parked one is dropped, never handed out.
      if (thread.owner) thread.owner(err);
      else if (parked?.thread === thread) {
        unpark();
        thread.replies.close();
      }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      thread.exited = true;
      lost(new Error(`the deflate worker exited (code ${code})`));
    });
    return thread;
  }

  /** Hands a finished batch on; a failure there fails the offload, as a lost worker does. */
  #done(slots: S[]): void {
    if (!this.#onBatch || slots.length === 0 || this.#failure || this.#handOnFailure) return;
    try {
      this.#onBatch(slots);
    } catch (err) {
      this.#handOnFailure = err as Error;
    }
  }
}

/** A deflate worker and the port it answers on, handed from one offload to the next while it is idle. */
interface DeflateThread {
  worker: Worker;
  /**
   * [FINISHED]: batches the worker has finished, counted (and notified) by the worker itself after it posted each
   * reply; [UP]: 1 once the worker can take batches.
   */
  shared: Int32Array;
  replies: MessagePort;
  /** Fails the offload using it: none while parked. */
  owner: ((err: Error) => void) | null;
  /** Its exit event came: nothing it was sent will be answered. */
  exited: boolean;
}

/**
 * The worker of the last offload that drained, kept for the next one for a minute. A reconciler's next sync then
 * compresses on two threads from its first full batch: booting a worker (30-50 ms) took longer than a one-template
 * sync at XL had left once its first batch filled, so that sync deflated its 1.9 MB of trees on one thread.
 */
let parked: { thread: DeflateThread; timer: NodeJS.Timeout } | null = null;
const PARKED_MS = 60_000;

/** Keeps an idle thread for the next offload; false when one is kept already. */
function park(thread: DeflateThread): boolean {
  if (parked) return false;
  // Replies of a pack discarded while its batches were out: none is read by the next owner, whose ids restart.
  while (receiveMessageOnPort(thread.replies));
  Atomics.store(thread.shared, FINISHED, 0);
  const timer = setTimeout(() => {
    if (parked?.thread !== thread) return;
    parked = null;
    thread.replies.close();
    void thread.worker.terminate();
  }, PARKED_MS);
  timer.unref();
  parked = { thread, timer };
  return true;
}

function unpark(): DeflateThread | null {
  const kept = parked;
  if (!kept) return null;
  parked = null;
  clearTimeout(kept.timer);
  return kept.thread.exited ? null : kept.thread;
}

/** Whether a worker is kept for the next offload (parked by the last one that drained). */
export function deflateWorkerParked(): boolean {
  return parked !== null;
}

/** Atomics.waitAsync (V8, Node 16+), which TypeScript's ES2022 library does not declare yet. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync: (
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ) => { async: true; value: Promise<string> } | { async: false; value: string };
  }
).waitAsync;

/**
 * Resolves when the worker changes shared[index] from `value`, or after a second. The timer keeps the process alive
 * meanwhile (neither the unref'd worker nor the wait does) and lets an error event (a lost worker) through.
 */
function wakeOn(shared: Int32Array, index: number, value: number): Promise<void> {
  const wait = waitAsync(shared, index, value, 1000);
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    if (wait.async) void wait.value.then(wake);
    else setImmediate(wake);
  });
}

const BATCH_BYTES = 1024 * 1024;
/** Indexes in the offload's shared Int32Array. */
const FINISHED = 0;
const UP = 1;
/** At most this many batches (8 MiB raw) wait on the worker. Fewer, larger messages: each one costs the thread that sends it. */
const MAX_QUEUED_BATCHES = 8;

interface Batch<S extends DeflateSlot = DeflateSlot> {
  /** Its own ArrayBuffer (never node's shared pool): it is transferred to the worker. */
  bytes: Buffer;
  used: number;
  ends: number[];
  /** Each object's pack type code, 0 for bytes only. */
  types: number[];
  slots: S[];
}

/** The worker's answer to a batch: compressed objects end to end; 20 bytes of id and a CRC each (NO_CRC: untyped). */
interface Reply {
  id: number;
  out: Uint8Array;
  ends: number[];
  oids: Uint8Array;
  crcs: Float64Array;
}
/** A CRC-32 is below 2^32: this one says "no type given, nothing computed". */
const NO_CRC = -1;

/** Empty batches have no buffer yet: a PackWriter that never adds allocates nothing. */
function newBatch<S extends DeflateSlot>(size = 0): Batch<S> {
  return { bytes: Buffer.allocUnsafeSlow(size), used: 0, ends: [], types: [], slots: [] };
}

/**
 * A batch compressed on this thread (too small to be worth a worker, or the worker is behind), into one dense
 * buffer like the worker's replies: zlib's own results sit in 4 KiB-or-larger backing stores.
 */
function deflateHere<S extends DeflateSlot>(batch: Batch<S>): S[] {
  const parts: Buffer[] = [];
  let start = 0;
  batch.ends.forEach((end, i) => {
    const content = batch.bytes.subarray(start, end);
    const deflated = deflateSync(content, DEFLATE);
    parts.push(deflated);
    const type = batch.types[i]!;
    if (type !== 0) {
      const slot = batch.slots[i]!;
      slot.oid = createHash('sha1').update(`${TYPE_NAME[type]} ${content.length}\0`).update(content).digest();
      slot.crc = crc32(deflated, crc32(objectHeader(type, content.length)));
    }
    start = end;
  });
  // Not Buffer.concat: a small result would come from node's shared pool and keep a whole slab alive.
  const arena = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) at += part.copy(arena, at);
  at = 0;
  batch.slots.forEach((slot, i) => {
    slot.deflated = arena.subarray(at, (at += parts[i]!.length));
  });
  return batch.slots;
}

// The worker: each message is a batch (one buffer, end offsets, type codes); the reply, on the replies port, is the
// compressed objects end to end, and the ids and CRCs of the typed ones (as deflateHere computes them, objectHeader's
// entry header written out the same way). Counted and notified after it is posted, so a count the main thread sees
// has its reply waiting.
const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads');
const { crc32, deflateSync } = require('node:zlib');
const crypto = require('node:crypto');
const NAMES = ['', 'commit', 'tree', 'blob'];
// git's id is the SHA-1 of 'type size\\0' and the content: for an object of a few KiB (a rendered file), one call
// over both copied together (crypto.hash, node 20.12+) costs less than a hash object and three calls.
const scratch = Buffer.allocUnsafe(64 * 1024);
function objectId(type, content) {
  const head = NAMES[type] + ' ' + content.length + '\\0';
  if (!crypto.hash || head.length + content.length > scratch.length)
    return crypto.createHash('sha1').update(head).update(content).digest();
  const at = scratch.write(head, 0, 'latin1');
  scratch.set(content, at);
  return crypto.hash('sha1', scratch.subarray(0, at + content.length), 'buffer');
}
function entryHeader(type, size) {
  const bytes = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Uint8Array.from(bytes);
}
parentPort.on('message', ({ id, bytes, ends, types }) => {
  const parts = [];
  const oids = new Uint8Array(20 * ends.length);
  const crcs = new Float64Array(ends.length).fill(${NO_CRC});
  let start = 0;
  let total = 0;
  ends.forEach((end, i) => {
    const content = bytes.subarray(start, end);
    const part = deflateSync(content, workerData.options);
    parts.push(part);
    total += part.length;
    start = end;
    const type = types[i];
    if (type === 0) return;
    oids.set(objectId(type, content), 20 * i);
    crcs[i] = crc32(part, crc32(entryHeader(type, content.length)));
  });
  const out = new Uint8Array(total);
  const outEnds = [];
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
    outEnds.push(at);
  }
  workerData.replies.postMessage({ id, out, ends: outEnds, oids, crcs }, [out.buffer, oids.buffer, crcs.buffer]);
  Atomics.add(workerData.shared, ${FINISHED}, 1);
  Atomics.notify(workerData.shared, ${FINISHED});
});
Atomics.store(workerData.shared, ${UP}, 1);
Atomics.notify(workerData.shared, ${UP});`;
