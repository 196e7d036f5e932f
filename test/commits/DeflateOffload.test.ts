import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { deflateSync, inflateSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFLATE } from '../../src/commits/buildPack.ts';
import { runProgram } from '../helpers/runProgram.ts';
import { DeflateOffload, deflateWorkerParked, type DeflateSlot } from '../../src/commits/DeflateOffload.ts';

const EMPTY = Buffer.alloc(0);

/** Manifest-like contents: compressible text, a few large random blobs, and an empty one. */
function contents(count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 97 === 5) out.push(randomBytes(70_000 + i));
    else if (i === 3) out.push(new Uint8Array(0));
    else
      out.push(
        Buffer.from(
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  key: ${'value-'.repeat(i % 40)}${i}\n`,
        ),
      );
  }
  return out;
}

/** `count` manifest-like contents through `offload`, drained: each object gets the bytes deflateSync gives here. */
async function deflatesAsHere(offload: DeflateOffload, count = 3000): Promise<void> {
  const inputs = contents(count);
  const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => offload.add(slots[i]!, content));
  await offload.drain();
  inputs.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE)), `object ${i}`));
}

/** An ES module run by a node of its own (a crash there is its exit code, not this runner's): what it printed. */
const runScript = (script: string) =>
  runProgram(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '../..'),
  });

/** Adds contents until the first batch is full (the worker starts), then waits for the worker to be up. */
async function startWorker(offload: DeflateOffload): Promise<DeflateSlot[]> {
  const slots: DeflateSlot[] = [];
  while (slots.length < 20) {
    const slot = { deflated: EMPTY };
    offload.add(slot, Buffer.alloc(100_000, slots.length));
    slots.push(slot);
  }
  assert.ok(await offload.workerReady(), 'a worker started past one batch');
  return slots;
}

test('many batches through the worker: each object gets exactly the bytes deflateSync gives here', async () => {
  const offload = new DeflateOffload();
  const first = await startWorker(offload);
  const inputs = contents(3000); // ~5 MB: well over one batch, so the worker does most of it
  const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => offload.add(slots[i]!, content));
  await offload.drain();
  first.forEach((slot, i) => assert.ok(slot.deflated.equals(deflateSync(Buffer.alloc(100_000, i), DEFLATE))));
  inputs.forEach((content, i) => {
    assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE)), `object ${i}`);
    assert.ok(inflateSync(slots[i]!.deflated).equals(content));
  });
});

test("more batches than may wait on the worker at once (this thread then takes some): still deflateSync's bytes, in order", async () => {
  const offload = new DeflateOffload();
  await startWorker(offload);
  const inputs = Array.from({ length: 60 }, (_, i) =>
    Buffer.concat([Buffer.from(`batch ${i}\n`), Buffer.alloc(300_000, i)]),
  );
  const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => offload.add(slots[i]!, content)); // no yield between adds, as in a render
  await offload.drain();
  inputs.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE)), `object ${i}`));
});

test('less than one batch is deflated on this thread at drain, and the offload can be used again', async () => {
  const offload = new DeflateOffload();
  const first = contents(20).filter((c) => c.byteLength < 10_000);
  const slots = first.map(() => ({ deflated: EMPTY }));
  first.forEach((content, i) => offload.add(slots[i]!, content));
  assert.ok(
    slots.every((s) => s.deflated === EMPTY),
    'nothing is compressed before drain',
  );
  await offload.drain();
  first.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE))));

  const again = contents(400);
  const more = again.map(() => ({ deflated: EMPTY }));
  again.forEach((content, i) => offload.add(more[i]!, content));
  await offload.drain();
  again.forEach((content, i) => assert.ok(more[i]!.deflated.equals(deflateSync(content, DEFLATE))));
});

test("batches full before the worker is up wait for it, or are compressed here at drain: deflateSync's bytes either way", async () => {
  for (const waitForWorker of [false, true]) {
    const offload = new DeflateOffload();
    // Twelve 1 MiB batches without a yield: more than may wait for a worker still booting.
    const inputs = Array.from({ length: 12 }, (_, i) =>
      Buffer.concat([Buffer.from(`batch ${i}\n`), randomBytes(1 << 20)]),
    );
    const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
    inputs.forEach((content, i) => offload.add(slots[i]!, content));
    if (waitForWorker) assert.ok(await offload.workerReady());
    await offload.drain();
    inputs.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE)), `object ${i}`));
    assert.is(await offload.workerReady(), false, 'drain ended the worker');
  }
});

test('a caller may reuse its buffer right after add: the content was copied', async () => {
  const offload = new DeflateOffload();
  const buffer = Buffer.from('first version of the bytes\n');
  const slot = { deflated: EMPTY };
  offload.add(slot, buffer);
  buffer.fill(0x41);
  await offload.drain();
  assert.is(inflateSync(slot.deflated).toString(), 'first version of the bytes\n');
});

test('discard drops its batches (a worker busy with them finishes them first); the offload can be used again', async () => {
  const offload = new DeflateOffload();
  const inputs = contents(3000); // past one batch: the worker starts
  const dropped = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => offload.add(dropped[i]!, content));
  await offload.discard();
  await offload.drain(); // nothing in flight: returns at once rather than waiting on replies that will never come
  const again = contents(10);
  const slots = again.map(() => ({ deflated: EMPTY }));
  again.forEach((content, i) => offload.add(slots[i]!, content));
  await offload.drain();
  again.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE))));
});

test("a drained worker is kept for the process's next offload, which takes it: deflateSync's bytes, kept again after", async () => {
  const first = new DeflateOffload();
  await startWorker(first);
  await first.drain();
  assert.ok(deflateWorkerParked(), 'kept once its offload drained');
  const next = new DeflateOffload();
  const inputs = Array.from({ length: 30 }, (_, i) =>
    Buffer.concat([Buffer.from(`next ${i}\n`), Buffer.alloc(100_000, i)]),
  );
  const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => next.add(slots[i]!, content));
  assert.not.ok(deflateWorkerParked(), 'taken by the next offload once a batch filled');
  assert.ok(await next.workerReady());
  await next.drain();
  inputs.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE)), `object ${i}`));
  assert.ok(deflateWorkerParked(), 'kept again');
});

test('a worker still booting when its offload drains is kept too: the next offload finds it up', async () => {
  // Holds the worker an earlier test may have left parked, so the offload below starts one of its own.
  const holder = new DeflateOffload();
  await startWorker(holder);
  const first = new DeflateOffload();
  const inputs = Array.from({ length: 20 }, (_, i) => Buffer.alloc(100_000, i)); // two batches: a worker starts
  const slots: DeflateSlot[] = inputs.map(() => ({ deflated: EMPTY }));
  inputs.forEach((content, i) => first.add(slots[i]!, content));
  await first.drain(); // at once: its worker is still booting, so this thread compressed everything
  inputs.forEach((content, i) => assert.ok(slots[i]!.deflated.equals(deflateSync(content, DEFLATE))));
  assert.ok(deflateWorkerParked(), 'kept while booting');
  await holder.drain(); // one is kept already: this one's worker ends
  const next = new DeflateOffload();
  await startWorker(next);
  await next.drain();
  assert.ok(deflateWorkerParked());
});

test('a worker that fails reports its own error, not only that it exited', async () => {
  const post = Worker.prototype.postMessage;
  // A batch the worker cannot read: its handler throws, and the worker then exits.
  Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly never[]) {
    return post.call(this, { ...(message as object), bytes: null }, transfer);
  };
  try {
    const offload = new DeflateOffload();
    await startWorker(offload);
    contents(3000).forEach((content) => offload.add({ deflated: EMPTY }, content));
    let failure: Error | undefined;
    await offload.drain().catch((err: Error) => {
      failure = err;
    });
    assert.ok(failure, 'drain throws');
    assert.match(failure!.message, /deflate worker failed: .*null/);
    assert.not.match(failure!.message, /exited/);
  } finally {
    Worker.prototype.postMessage = post;
  }
  assert.not.ok(deflateWorkerParked(), 'a failed worker is not kept');
  await deflatesAsHere(new DeflateOffload());
});

test('a parked worker that exits is dropped, not handed out: the next offload starts its own', async () => {
  const post = Worker.prototype.postMessage;
  let used: Worker | undefined;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly never[]) {
    used = this;
    return post.call(this, message, transfer);
  };
  const first = new DeflateOffload();
  try {
    await startWorker(first);
    first.add({ deflated: EMPTY }, Buffer.alloc(2 << 20, 7)); // one more full batch: posted to the worker
  } finally {
    Worker.prototype.postMessage = post;
  }
  await first.drain();
  assert.ok(deflateWorkerParked());
  assert.ok(used, 'a batch went to the worker');
  await used!.terminate(); // its exit event comes while it is parked
  assert.not.ok(deflateWorkerParked(), 'dropped');
  await deflatesAsHere(new DeflateOffload());
});

test('a pack discarded while its batches are out leaves none of their replies to the next offload', async () => {
  for (let round = 0; round < 3; round++) {
    const dropped = new DeflateOffload();
    await startWorker(dropped);
    contents(3000).forEach((content) => dropped.add({ deflated: EMPTY }, content));
    await dropped.discard();
    await deflatesAsHere(new DeflateOffload());
  }
});

test('discarding packs while a worker compresses them never ends it inside zlib: the process lives on', async () => {
  // Node 20 aborts a process whose worker is terminated mid-deflateSync: this loop died within 4-36 rounds so.
  const script = `
    const { DeflateOffload } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/commits/DeflateOffload.ts'))});
    for (let round = 0; round < 60; round++) {
      const offload = new DeflateOffload();
      for (let i = 0; i < 20; i++) offload.add({ deflated: Buffer.alloc(0) }, Buffer.alloc(100_000, i));
      await offload.workerReady();
      for (let i = 0; i < 3000; i++) offload.add({ deflated: Buffer.alloc(0) }, Buffer.from('kind: ConfigMap\\n' + 'x'.repeat(i % 400)));
      await offload.discard();
    }
    process.stdout.write('lived\\n');
  `;
  const { code, stdout } = await runScript(script);
  assert.equal({ stdout, code }, { stdout: 'lived\n', code: 0 });
});

test('a kept worker does not keep the process alive: it exits as soon as its work is done', async () => {
  const script = `
    const { DeflateOffload, deflateWorkerParked } = await import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/commits/DeflateOffload.ts'))});
    const offload = new DeflateOffload();
    for (let i = 0; i < 30; i++) offload.add({ deflated: Buffer.alloc(0) }, Buffer.alloc(100_000, i));
    await offload.workerReady();
    await offload.drain();
    process.stdout.write(deflateWorkerParked() ? 'parked\\n' : 'not parked\\n');
  `;
  const { code, stdout } = await runScript(script);
  assert.is(stdout, 'parked\n');
  assert.is(code, 0);
});

test.run();
