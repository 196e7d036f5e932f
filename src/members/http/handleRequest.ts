import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../ApiError.ts';
import {
  aggregatedDiscovery,
  AGGREGATED_CONTENT_TYPE,
  apiGroup,
  apiGroupList,
  servedElsewhere,
  apiResourceList,
  apiVersions,
} from './discovery.ts';
import { handleResource } from './handleResource.ts';
import { openapiGroupVersionDocument, openapiIndex, openapiV2Response } from './openapi.ts';
import { parseApiPath } from './parseApiPath.ts';
import { checkRequestTimeout, queryBool } from './requestOptions.ts';
import { sendJson, sendMarshaledJson, sendRawJson, sendStatus, sendText } from './respond.ts';
import { answerUnrouted, servedByRestful } from './unroutedRequest.ts';
import type { ServerContext } from './ServerContext.ts';

const APISERVICES = 'apiregistration.k8s.io/apiservices';

const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: 'flotilla-member-emulator',
  gitTreeState: 'clean',
  buildDate: '2024-12-11T00:00:00Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz']);

/** Everything one request goes through: fault injection, health, authentication, then the API routes. */
export async function handleRequest(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (ctx.faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, ctx.faults.latencyMs));
    const url = new URL(req.url ?? '/', 'https://member.local');
    const pathname = url.pathname.replace(/\/+$/, '') || '/';
    if (!isLongRunning(url, pathname)) checkRequestTimeout(url.searchParams);
    // Health and version are readable without credentials, as system:public-info-viewer allows.
    if (
      HEALTH_PATHS.has(pathname) ||
      pathname.startsWith('/readyz/') ||
      pathname.startsWith('/healthz/') ||
      pathname.startsWith('/livez/')
    ) {
      const failing = ctx.faults.readyzFalse && pathname.startsWith('/readyz');
      if (failing) sendText(res, 500, '[-]etcd failed: reason withheld\nreadyz check failed\n');
      else sendText(res, 200, 'ok');
      return;
    }
    if (pathname === '/version') return sendRawJson(res, 200, VERSION);
    if (!authenticated(ctx, req)) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    if (ctx.faults.errorRate > 0 && Math.random() < ctx.faults.errorRate) {
      throw new ApiError(500, 'InternalError', 'Internal error occurred: injected fault (flotilla member errorRate)');
    }
    await route(ctx, req, res, url, pathname);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ApiError) return sendStatus(res, error);
    sendStatus(
      res,
      new ApiError(500, 'InternalError', `Internal error occurred: ${(error as Error)?.message ?? String(error)}`),
    );
  }
}

/** Watches and log streams are long-running requests: no request deadline, so `timeout` is not read. */
function isLongRunning(url: URL, pathname: string): boolean {
  return (
    queryBool(url.searchParams, 'watch') === true ||
    /\/(api\/v1|apis\/[^/]+\/[^/]+)\/watch\//.test(pathname) ||
    pathname.endsWith('/log')
  );
}

function authenticated(ctx: ServerContext, req: IncomingMessage): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(ctx.token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function route(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  pathname: string,
): Promise<void> {
  const accept = req.headers.accept ?? '';
  const aggregated = accept.includes('as=APIGroupDiscoveryList');
  const discoveryVersion = /v=v2(;|,|$)/.test(
    accept.split(',').find((a) => a.includes('as=APIGroupDiscoveryList')) ?? '',
  )
    ? 'v2'
    : 'v2beta1';
  const isGet = (req.method ?? 'GET') === 'GET';
  const segments = pathname.split('/').filter(Boolean);

  const apiServices = () => ctx.store.list(APISERVICES);
  if (isGet && (pathname === '/api' || pathname === '/apis')) {
    const legacy = pathname === '/api';
    if (aggregated) {
      const contentType =
        discoveryVersion === 'v2' ? AGGREGATED_CONTENT_TYPE : AGGREGATED_CONTENT_TYPE.replace('v=v2;', 'v=v2beta1;');
      return sendJson(
        res,
        200,
        aggregatedDiscovery(ctx.registry, legacy, discoveryVersion, apiServices()),
        contentType,
      );
    }
    return sendJson(res, 200, legacy ? apiVersions(ctx.address()) : apiGroupList(ctx.registry, apiServices()));
  }
  if (isGet && segments[0] === 'apis' && segments.length === 2) {
    const group = apiGroup(ctx.registry, segments[1]!, apiServices());
    if (group) return sendJson(res, 200, group);
  }
  // kube-aggregator proxies an APIService's paths to its Service; with none to reach it answers http.Error's text.
  if (
    segments[0] === 'apis' &&
    segments.length >= 3 &&
    servedElsewhere(ctx.registry, apiServices(), segments[1]!, segments[2]!)
  )
    return sendText(res, 503, 'service unavailable\n');
  if (
    isGet &&
    ((segments[0] === 'api' && segments.length === 2) || (segments[0] === 'apis' && segments.length === 3))
  ) {
    const [group, version] = segments[0] === 'api' ? ['', segments[1]!] : [segments[1]!, segments[2]!];
    const list = apiResourceList(ctx.registry, group, version);
    if (list) return sendJson(res, 200, list);
  }
  if (isGet && pathname === '/openapi/v2') {
    const answer = openapiV2Response(accept);
    res.setHeader('Vary', 'Accept');
    if (!answer) {
      res.writeHead(406).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': answer.contentType, 'Content-Length': answer.body.length });
    res.end(answer.body);
    return;
  }
  if (isGet && pathname === '/openapi/v3') return sendMarshaledJson(res, 200, openapiIndex(ctx.registry));
  if (isGet && segments[0] === 'openapi' && segments[1] === 'v3') {
    const rest = segments.slice(2);
    const [group, version] = rest[0] === 'api' ? ['', rest[1] ?? ''] : [rest[1] ?? '', rest[2] ?? ''];
    const doc = openapiGroupVersionDocument(ctx.registry, group, version);
    if (doc) return sendMarshaledJson(res, 200, doc);
  }
  const parsed = parseApiPath(ctx.registry, pathname);
  if (parsed.type === 'resource') return handleResource(ctx, req, res, parsed.path, url);
  answerUnrouted(
    res,
    servedByRestful(ctx.registry, pathname) ? { by: 'restful', code: 404 } : { by: 'notFoundHandler' },
  );
}
