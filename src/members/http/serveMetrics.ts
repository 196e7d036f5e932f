import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '../ApiError.ts';
import { readNodeMetrics, readPodMetrics } from '../metrics/readMetrics.ts';
import { matchesFieldRequirements, parseFieldSelector } from '../selectors/parseFieldSelector.ts';
import { matchesLabelRequirements, parseLabelSelector } from '../selectors/parseLabelSelector.ts';
import type { ApiPath } from './parseApiPath.ts';
import { renderTable } from './renderTable.ts';
import { parseIncludeObject, parseListOptions } from './requestOptions.ts';
import { sendJson } from './respond.ts';
import { methodNotSupported, restfulMethodNotAllowed } from './unroutedRequest.ts';
import type { ServerContext } from './ServerContext.ts';
import { formatTime } from '../../time/formatTime.ts';

/**
 * metrics.k8s.io/v1beta1, the way metrics-server serves it to `kubectl top` and the HPA: get and list of
 * PodMetrics and NodeMetrics computed at read time, filtered by label and field selectors. Nothing is stored,
 * so there are no writes and no watch.
 */
export function serveMetrics(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: ApiPath,
  url: URL,
): void {
  const { rt } = path;
  const method = req.method ?? 'GET';
  // metrics-server routes only get and list; its list handler refuses a watch its storage cannot serve.
  if (method !== 'GET' || path.subresource) throw restfulMethodNotAllowed();
  const options = parseListOptions(url.searchParams);
  if (options.watch && !path.name) throw methodNotSupported(rt.group, rt.plural, 'watch');
  const timestamp = formatTime(ctx.now());
  const all =
    rt.kind === 'PodMetrics'
      ? readPodMetrics(ctx.store, path.namespace, timestamp)
      : readNodeMetrics(ctx.store, timestamp);
  const resourceVersion = String(ctx.store.resourceVersion);
  const table = (req.headers.accept ?? '').includes('as=Table');
  if (path.name) {
    const found = all.find((m) => m.metadata.name === path.name);
    if (!found) throw notFound(rt.group, rt.plural, path.name);
    if (table)
      return sendJson(
        res,
        200,
        renderTable(rt, [found], ctx.now().getTime(), {
          includeObject: parseIncludeObject(url.searchParams),
          resourceVersion,
        }),
      );
    return sendJson(res, 200, found);
  }
  const labels = parseLabelSelector(options.labelSelector);
  const fields = parseFieldSelector(options.fieldSelector);
  const items = all.filter(
    (m) => matchesLabelRequirements(labels, m.metadata.labels) && matchesFieldRequirements(fields, m),
  );
  if (table)
    return sendJson(
      res,
      200,
      renderTable(rt, items, ctx.now().getTime(), {
        includeObject: parseIncludeObject(url.searchParams),
        resourceVersion,
      }),
    );
  sendJson(res, 200, {
    kind: `${rt.kind}List`,
    apiVersion: 'metrics.k8s.io/v1beta1',
    metadata: { resourceVersion },
    items,
  });
}
