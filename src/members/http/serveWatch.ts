import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../ApiError.ts';
import { readStored } from '../resources/customResourceSchema.ts';
import { servedAs } from '../resources/hpaVersions.ts';
import { groupVersionOf, resourceKeyOf } from '../resources/ResourceRegistry.ts';
import type { KubeObject, ResourceType, StoreEvent, WatchEventType } from '../types.ts';
import type { ServerContext } from './ServerContext.ts';
import { renderTable } from './renderTable.ts';
import type { ListOptions } from './requestOptions.ts';
import { marshalJson } from './respond.ts';

export interface WatchFilter {
  namespace?: string;
  matches: (object: KubeObject) => boolean;
}

/** The longest delay setTimeout honours; a longer one fires at once instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const PRE_TIMEOUT_BOOKMARK_MS = 2000;

/**
 * A watch stream: headers flushed at once (client-node waits for them before it starts its 30 s idle timer),
 * then one JSON event per line. With sendInitialEvents (which v1.32 defaults on for a watch from no
 * resourceVersion or "0") the current objects replay as ADDED first, closed by an initial-events-end BOOKMARK
 * when bookmarks are allowed; otherwise the event log replays from the resourceVersion given or the stream
 * answers 410 Expired. Objects entering or leaving the selector arrive as ADDED or DELETED, as the real watch
 * cache does.
 */
export function serveWatch(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  rt: ResourceType,
  filter: WatchFilter,
  options: ListOptions,
  asTable: boolean,
): void {
  const resource = resourceKeyOf(rt);
  const apiVersion = groupVersionOf(rt);
  const wantsBookmarks = options.allowWatchBookmarks;
  const rvParam = options.resourceVersion;
  if (rvParam !== '' && rvParam !== '0' && !/^[0-9]+$/.test(rvParam)) {
    const detail = `Invalid value: ${JSON.stringify(rvParam)}: strconv.ParseUint: parsing ${JSON.stringify(rvParam)}: invalid syntax`;
    throw new ApiError(
      422,
      'Invalid',
      `${rt.plural}${rt.group ? `.${rt.group}` : ''} "" is invalid: resourceVersion: ${detail}`,
      {
        group: rt.group,
        kind: rt.plural,
        causes: [{ type: 'FieldValueInvalid', message: detail, field: 'resourceVersion' }],
      },
    );
  }
  let firstTableEvent = true;

  const inScope = (o: KubeObject | undefined) =>
    o !== undefined &&
    (filter.namespace === undefined || o.metadata.namespace === filter.namespace) &&
    filter.matches(o);
  const present = (o: KubeObject): unknown => {
    const object = { ...servedAs(readStored(rt, o), rt), apiVersion, kind: rt.kind };
    if (!asTable) return object;
    const table = renderTable(rt, [object], ctx.now().getTime(), {
      includeObject: 'Metadata',
      resourceVersion: object.metadata.resourceVersion ?? '',
      headers: firstTableEvent,
    });
    firstTableEvent = false;
    return table;
  };
  const write = (type: WatchEventType | 'BOOKMARK' | 'ERROR', object: unknown) => {
    if (!res.writableEnded) res.write(`${marshalJson({ type, object })}\n`);
  };
  const translate = (event: StoreEvent) => {
    if (event.resource !== resource) return;
    const now = inScope(event.object);
    const before = event.type !== 'ADDED' && inScope(event.previous);
    if (event.type === 'ADDED' && now) write('ADDED', present(event.object));
    else if (event.type === 'MODIFIED') {
      if (now && before) write('MODIFIED', present(event.object));
      else if (now) write('ADDED', present(event.object));
      // An object leaving the selector goes as it was when it last matched, at the event's resourceVersion
      // (cacheWatcher.convertToWatchEvent), so a client's handler still sees the labels it selected it by.
      else if (before) write('DELETED', present(atVersion(event.previous!, event.object.metadata.resourceVersion!)));
    } else if (event.type === 'DELETED' && (now || before)) write('DELETED', present(event.object));
  };
  const bookmark = (annotations?: Record<string, string>) =>
    write('BOOKMARK', {
      kind: rt.kind,
      apiVersion,
      metadata: { resourceVersion: String(ctx.store.resourceVersion), ...(annotations ? { annotations } : {}) },
    });

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();

  // Without sendInitialEvents (only the deprecated /watch/ prefix leaves it unset now) a watch from no
  // resourceVersion or "0" still starts with the current objects, just without the closing bookmark.
  const fromNowhere = rvParam === '' || rvParam === '0';
  if (options.sendInitialEvents === true || (options.sendInitialEvents === undefined && fromNowhere)) {
    for (const object of ctx.store.list(resource, filter.namespace))
      if (inScope(object)) write('ADDED', present(object));
    if (options.sendInitialEvents === true && wantsBookmarks) bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else if (!fromNowhere) {
    const events = ctx.store.eventsSince(Number(rvParam));
    if (!events) {
      write(
        'ERROR',
        new ApiError(
          410,
          'Expired',
          `too old resource version: ${rvParam} (${ctx.store.oldestWatchableVersion()})`,
        ).toStatus(),
      );
      res.end();
      return;
    }
    for (const event of events) translate(event);
  }

  const unsubscribe = ctx.store.subscribe(translate);
  const timers: NodeJS.Timeout[] = [];
  const periodic = wantsBookmarks ? setInterval(() => bookmark(), ctx.bookmarkIntervalMs) : undefined;
  if (periodic) timers.push(periodic);
  // The server's own default (minRequestTimeout, 30 to 60 minutes) is left out: it only ever ends a healthy stream.
  const timeoutMs = Math.min(Math.max(0, (options.timeoutSeconds ?? 0) * 1000), MAX_TIMER_MS);
  if (timeoutMs !== 0) {
    timers.push(setTimeout(() => res.end(), timeoutMs));
    // The cache watcher's last bookmark goes 2 s before the deadline (nextBookmarkTime), so the client resumes from
    // a resourceVersion as recent as the stream can give; none when the watch is shorter than that, none after it.
    if (periodic && timeoutMs > PRE_TIMEOUT_BOOKMARK_MS)
      timers.push(
        setTimeout(() => {
          clearInterval(periodic);
          bookmark();
        }, timeoutMs - PRE_TIMEOUT_BOOKMARK_MS),
      );
  }
  const cleanup = () => {
    unsubscribe();
    for (const t of timers) clearTimeout(t);
  };
  res.on('close', cleanup);
  req.on('close', cleanup);
}

function atVersion(object: KubeObject, resourceVersion: string): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion } };
}
