import type { ServerResponse } from 'node:http';
import { ApiError } from '../ApiError.ts';
import type { ResourceRegistry } from '../resources/ResourceRegistry.ts';
import type { ApiPath } from './parseApiPath.ts';
import { sendStatus, sendText } from './respond.ts';

/**
 * How kube-apiserver answers a request no handler serves. Built-in group versions are go-restful web services whose
 * missing routes are a 404 or 405 Status with empty details (serviceErrorHandler, NewGenericServerResponse); any
 * other path falls through the aggregator and the CRD handler to the not-found handler's plain `404 page not found`.
 */
export type Unrouted = { by: 'restful'; code: 404 | 405 } | { by: 'notFoundHandler' };

/** A go-restful web service serves the path: /api and below, and /apis/<group>/<version> of a built-in resource. */
export function servedByRestful(registry: ResourceRegistry, pathname: string): boolean {
  const [root, group, version] = pathname.split('/').filter(Boolean);
  if (root === 'api') return true;
  if (root !== 'apis' || !group || !version) return false;
  return registry.inGroupVersion(group, version).some((rt) => !rt.crd);
}

/**
 * A namespaced resource addressed without a namespace: the installer gives a built-in one only list and watch
 * there, so another method on the collection is a 405 and any item path a 404; the CRD handler passes every verb
 * but list and watch on to the not-found handler.
 */
export function unroutedScope(path: ApiPath, method: string): Unrouted | undefined {
  const { rt, namespace, name, subresource } = path;
  if (!rt.namespaced || namespace !== undefined) return undefined;
  const listOrWatch = method === 'GET' && !name && !subresource;
  if (listOrWatch) return undefined;
  if (rt.crd) return { by: 'notFoundHandler' };
  return { by: 'restful', code: name ? 404 : 405 };
}

/** http.NotFound's text, or the Status serviceErrorHandler writes for a go-restful miss. */
export function answerUnrouted(res: ServerResponse, unrouted: Unrouted): void {
  if (unrouted.by === 'notFoundHandler') return sendText(res, 404, '404 page not found\n');
  sendStatus(
    res,
    unrouted.code === 404
      ? new ApiError(404, 'NotFound', 'the server could not find the requested resource', {})
      : restfulMethodNotAllowed(),
  );
}

/** serviceErrorHandler's 405 for a method no go-restful route of the path takes: no verb, empty details. */
export function restfulMethodNotAllowed(): ApiError {
  return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

/** NewMethodNotSupported: a handler that knows the resource refusing a verb it does not implement. */
export function methodNotSupported(group: string, resource: string, verb: string): ApiError {
  const qualified = group ? `${resource}.${group}` : resource;
  return new ApiError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified}"`, {
    group,
    kind: resource,
  });
}
