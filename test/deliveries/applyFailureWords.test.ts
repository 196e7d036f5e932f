// Karmada's execution controller writes `Failed to apply all manifests (0/1): <err>` into a Work's Applied condition,
// where err is what client-go's dynamic client returned: Go's net/url Error (`Op "URL": net error`) when no answer
// came, NewGenericServerResponse's sentence for an answer without a Status. Each case here fails for real, on loopback.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyClusterFolder } from '../../src/deliveries/applyClusterFolder.ts';
import { responseErrorText } from '../../src/deliveries/clientGoErrors.ts';
import { connectKubeTarget } from '../../src/deliveries/connectKubeTarget.ts';
import { issueCertificate } from '../../src/members/tls/issueCertificate.ts';

const RETRY = { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 };
const CORE = { kind: 'APIResourceList', resources: [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true }] };
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' }, data: {} });
const NOT_FOUND = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'nf' };

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
}

/** A member that serves discovery and finds no object, and answers writes with `onWrite`. */
function apiServer(onWrite: (req: IncomingMessage, res: ServerResponse) => void) {
  return createHttpServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/api/v1') return reply(200, CORE);
    if (req.method === 'GET') return reply(404, NOT_FOUND);
    req.resume();
    req.on('end', () => onWrite(req, res));
  });
}

/** Applies two ConfigMaps, one at a time, to `server` as a kubeconfig would point Flotilla at it. */
async function applyTo(server: string, opts: { ca?: string; timeoutMs?: number } = {}) {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'c',
        server,
        ...(opts.ca ? { caData: Buffer.from(opts.ca).toString('base64') } : { skipTLSVerify: true }),
      },
    ],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'm', cluster: 'c', user: 'u' }],
    currentContext: 'm',
  });
  const kube = await connectKubeTarget(kc, opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {});
  try {
    const report = await applyClusterFolder({
      cluster: 'm',
      manifests: new Map([
        ['a.yaml', cm('a')],
        ['b.yaml', cm('b')],
      ]),
      kube,
      inventory: [],
      prune: true,
      retry: RETRY,
      concurrency: 1,
    });
    return report.results;
  } finally {
    await kube.close();
  }
}

test('a closed port reads as Go dialing it: the request sent, connection refused; later objects say they were not sent', async () => {
  const probe = createTcpServer();
  const port = await listen(probe);
  await closeServer(probe);
  const [a, b] = await applyTo(`http://127.0.0.1:${port}`);
  const refused = `Get "http://127.0.0.1:${port}/api/v1": dial tcp 127.0.0.1:${port}: connect: connection refused`;
  assert.is(a!.error, refused);
  assert.ok(a!.unreachable);
  assert.match(a!.message, /^cluster m did not answer after 2 attempts: ECONNREFUSED/, 'the log keeps the attempts');
  assert.is(b!.error, `${refused} (not sent: an earlier request to m failed so)`);
  assert.ok(b!.unreachable);
});

test('a member that resets the connection on the apply reads as Go reading a reset, with the PATCH and its URL', async () => {
  const server = apiServer((req) => req.socket.resetAndDestroy());
  const port = await listen(server);
  try {
    const [a] = await applyTo(`http://127.0.0.1:${port}`);
    assert.is(
      a!.error,
      `Patch "http://127.0.0.1:${port}/api/v1/namespaces/d/configmaps/a?fieldManager=flotilla": read tcp 127.0.0.1:${port}: read: connection reset by peer`,
    );
  } finally {
    await closeServer(server);
  }
});

test('a member that closes the connection without answering reads as Go reading EOF', async () => {
  const server = apiServer((req) => req.socket.end());
  const port = await listen(server);
  try {
    const [a] = await applyTo(`http://127.0.0.1:${port}`);
    assert.is(a!.error, `Patch "http://127.0.0.1:${port}/api/v1/namespaces/d/configmaps/a?fieldManager=flotilla": EOF`);
  } finally {
    await closeServer(server);
  }
});

test('a member whose certificate another CA signed reads as Go failing to verify it: unknown authority', async () => {
  const ca = issueCertificate({ commonName: 'member-ca', isCa: true });
  const trusted = issueCertificate({ commonName: 'other-ca', isCa: true });
  const serving = issueCertificate({
    commonName: 'member',
    isCa: false,
    ipAddresses: ['127.0.0.1'],
    issuer: { commonName: 'member-ca', privateKey: ca.privateKey, keyId: ca.keyId },
  });
  const server = createHttpsServer({ key: serving.keyPem, cert: serving.certPem }, (_req, res) => res.end('{}'));
  const port = await listen(server);
  try {
    const [a] = await applyTo(`https://127.0.0.1:${port}`, { ca: trusted.certPem });
    assert.is(
      a!.error,
      `Get "https://127.0.0.1:${port}/api/v1": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  } finally {
    await closeServer(server);
  }
});

test('a member that never answers reads as client-go running out of its deadline', async () => {
  const server = createHttpServer(() => undefined);
  const port = await listen(server);
  try {
    const [a] = await applyTo(`http://127.0.0.1:${port}`, { timeoutMs: 50 });
    assert.is(a!.error, `Get "http://127.0.0.1:${port}/api/v1": context deadline exceeded`);
  } finally {
    await closeServer(server);
  }
});

test("a proxy's HTML 502 reads as client-go's sentence for a 5xx, quoting the page as Go's %q does", async () => {
  const page = '<html>\n<h1>502 Bad Gateway</h1>\n</html>\n';
  const server = apiServer((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(page);
  });
  const port = await listen(server);
  try {
    const [a, b] = await applyTo(`http://127.0.0.1:${port}`);
    const said =
      'an error on the server ("<html>\\n<h1>502 Bad Gateway</h1>\\n</html>") has prevented the request from succeeding';
    assert.is(a!.error, said);
    assert.is(a!.unreachable, undefined, 'the member answered');
    assert.match(a!.message, 'server-side apply failed: HTTP 502', 'the log keeps what Flotilla saw');
    assert.is(b!.error, said, 'an answer stops nothing: the next object is applied and fails on its own');
  } finally {
    await closeServer(server);
  }
});

test("a 401 without a body reads as client-go's sentence for it, wherever it comes, discovery included", async () => {
  const server = createHttpServer((_req, res) => {
    res.writeHead(401);
    res.end();
  });
  const port = await listen(server);
  try {
    const [a] = await applyTo(`http://127.0.0.1:${port}`);
    assert.is(a!.error, 'the server has asked for the client to provide credentials');
  } finally {
    await closeServer(server);
  }
});

test('an answer outside 2xx: a failure Status is its message; other bodies give the sentence of the code', () => {
  const typed = (status: number, type: string | undefined, body: unknown) => ({
    status,
    body,
    headers: (type ? { 'content-type': type } : {}) as Record<string, string>,
  });
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 401, message: 'Unauthorized' };
  assert.is(responseErrorText(typed(401, 'application/json', status)), 'Unauthorized');
  assert.is(responseErrorText(typed(401, undefined, JSON.stringify(status))), 'Unauthorized', 'decoded as JSON');
  assert.is(
    responseErrorText(typed(401, 'text/plain', JSON.stringify(status))),
    'the server has asked for the client to provide credentials',
    'a type client-go has no decoder for is never a Status',
  );
  assert.is(responseErrorText(typed(403, 'text/plain', 'Forbidden\n')), 'Forbidden', "403 keeps the server's text");
  assert.is(responseErrorText(typed(403, 'application/json', { message: 'denied' })), 'unknown', 'JSON, no Status');
  assert.is(
    responseErrorText(typed(500, 'application/json', '')),
    'an error on the server ("unknown") has prevented the request from succeeding',
  );
  assert.is(responseErrorText(typed(503, 'text/html', 'x')), 'the server is currently unable to handle the request');
  assert.is(
    responseErrorText(typed(407, 'text/html', 'x')),
    'the server responded with the status code 407 but did not return more information',
  );
  assert.is(
    responseErrorText(typed(502, 'text/plain', 'é'.repeat(2000))),
    `an error on the server ("${'é'.repeat(1024)}") has prevented the request from succeeding`,
    'the first 2048 bytes',
  );
});

test.run();
