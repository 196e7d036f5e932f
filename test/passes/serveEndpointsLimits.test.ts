import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReconcilerMetrics } from '../../src/passes/createReconcilerMetrics.ts';
import { serveEndpoints } from '../../src/passes/serveEndpoints.ts';

// Slow clients on loopback: a bounded number of them, each closed by the server or, at the latest, by the test.
const LIMITS = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  timeoutCheckIntervalMs: 100,
  maxConnectionsPerAddress: 10,
  maxConnections: 60,
  maxHeaderBytes: 4096,
};

async function listener() {
  return serveEndpoints({
    host: '127.0.0.1',
    port: 0,
    metrics: createReconcilerMetrics('limits-test'),
    webhookSecret: 's',
    log: () => undefined,
    readiness: () => ({ ready: true, reason: '' }),
    onWebhook: () => undefined,
    limits: LIMITS,
  });
}

interface Slow {
  socket: net.Socket;
  /** How the server closed it: ms after opening, and what it answered first (nothing when it closed at once). */
  closed: Promise<Closed>;
}

interface Closed {
  ms: number;
  answer: string;
}

/** A connection from `from` that sends `text` and then nothing more. */
function slowClient(url: string, from: string, text: string): Promise<Slow> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    const closed = new Promise<Closed>((done) =>
      socket.once('close', () => done({ ms: performance.now() - started, answer: answer.split('\r\n')[0] ?? '' })),
    );
    socket.once('error', () => undefined);
    socket.once('connect', () => {
      socket.write(text);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** Node's answer to a request head that did not arrive within the headers timeout. */
const TIMED_OUT = 'HTTP/1.1 408 Request Timeout';
/** Only a safety net: the server closes every slow connection within about a second. */
const SAFETY_NET_MS = 15_000;

const describe = (closed: readonly Closed[]) =>
  closed.map((c) => `${c.ms.toFixed(0)} ms ${c.answer || '(closed unanswered)'}`).join(', ');

/** Waits for every slow client to be closed, or fails (and closes them) after `ms`. */
async function allClosed(slow: Slow[], ms: number): Promise<Closed[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`slow connections still open after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.all(slow.map((s) => s.closed)), deadline]);
  } finally {
    clearTimeout(timer);
    for (const s of slow) s.socket.destroy();
  }
}

test('under a slow-loris load /healthz still answers, connections over the per-address cap are closed at once and the slow ones after the headers timeout', async () => {
  const server = await listener();
  try {
    const slow = await Promise.all(
      Array.from({ length: 30 }, () =>
        slowClient(server.url, '127.0.0.2', 'POST /hooks/generic HTTP/1.1\r\nHost: x\r\n'),
      ),
    );
    const health = await fetch(`${server.url}/healthz`);
    assert.is(health.status, 200);
    assert.is(await health.text(), 'ok\n');
    const closed = await allClosed(slow, SAFETY_NET_MS);
    // Told apart by what the server answered, not by when: over the per-address cap a connection is closed as it is
    // accepted, without a word; the others get node's 408 once their headers time out.
    const shown = describe(closed);
    assert.is(closed.filter((c) => c.answer === '').length, 20, shown);
    assert.ok(
      closed.filter((c) => c.answer !== '').every((c) => c.answer === TIMED_OUT && c.ms >= LIMITS.headersTimeoutMs),
      shown,
    );
  } finally {
    await server.close();
  }
});

test('a request whose body never arrives in full is closed after the request timeout', async () => {
  const server = await listener();
  try {
    const head =
      'POST /hooks/generic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ref":';
    const slow = await Promise.all(Array.from({ length: 3 }, () => slowClient(server.url, '127.0.0.3', head)));
    const closed = await allClosed(slow, SAFETY_NET_MS);
    assert.ok(
      closed.every((c) => c.answer === TIMED_OUT && c.ms >= LIMITS.requestTimeoutMs - 50),
      describe(closed),
    );
    assert.is((await fetch(`${server.url}/healthz`)).status, 200);
  } finally {
    await server.close();
  }
});

test('the total connection cap closes what is over it as it is accepted', async () => {
  const server = await listener();
  try {
    const addresses = Array.from({ length: 8 }, (_, i) => `127.0.1.${i + 1}`);
    const slow = await Promise.all(
      addresses.flatMap((from) =>
        Array.from({ length: 10 }, () => slowClient(server.url, from, 'GET /healthz HTTP/1.1\r\n')),
      ),
    );
    const closed = await allClosed(slow, SAFETY_NET_MS);
    assert.is(closed.filter((c) => c.answer === '').length, 80 - LIMITS.maxConnections, describe(closed));
  } finally {
    await server.close();
  }
});

test('a request head over the header limit is refused with 431 and the connection closed', async () => {
  const server = await listener();
  try {
    const big = await fetch(`${server.url}/healthz`, { headers: { 'X-Padding': 'x'.repeat(8 * 1024) } });
    assert.is(big.status, 431);
    assert.is((await fetch(`${server.url}/healthz`)).status, 200);
  } finally {
    await server.close();
  }
});

test.run();
