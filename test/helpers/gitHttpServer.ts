// A real smart-HTTP Git server on loopback: node's http server running `git http-backend` as CGI, as a
// hosted Git service would. Pushes are allowed (http.receivepack), so clients can fetch and push over HTTP.
// Fault knobs: a private repo (basic auth) and a hung host (stall).
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface GitHttpServer {
  /** http://127.0.0.1:PORT; a repo at <root>/x.git is served as `${url}/x.git`. */
  url: string;
  /** Requests that reached the server so far, stalled or not, e.g. 'GET /repo.git/info/refs?service=git-upload-pack'. */
  requests: string[];
  /** While on, every request is accepted and never answered, like a hung Git host: the client has to give up. */
  stall(on: boolean): void;
  /** Also ends stalled requests: their sockets are destroyed. */
  close(): Promise<void>;
}

/** `basicAuth` ('user:password'): every request without exactly that credential gets 401, as a private repo. */
export async function startGitHttpServer(
  projectRoot: string,
  opts: { basicAuth?: string } = {},
): Promise<GitHttpServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let stalled = false;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (stalled) return;
    if (opts.basicAuth && req.headers.authorization !== `Basic ${Buffer.from(opts.basicAuth).toString('base64')}`) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('authentication required');
      return;
    }
    serveCgi(projectRoot, req, res);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stall: (on) => {
      stalled = on;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function serveCgi(projectRoot: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://git.local');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      // http-backend only enables receive-pack for an authenticated user unless the repo says otherwise.
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      REMOTE_ADDR: '127.0.0.1',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  child.on('close', (code) => {
    if (!headersDone) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`git http-backend exited ${code}: ${stderr}`);
      return;
    }
    res.end();
  });
}
