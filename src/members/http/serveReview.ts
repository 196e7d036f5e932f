import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../ApiError.ts';
import type { ResourceType } from '../types.ts';
import { readBody } from './readBody.ts';
import { sendJson } from './respond.ts';
import { restfulMethodNotAllowed } from './unroutedRequest.ts';

const EVERYTHING = 'the flotilla member emulator authorizes every request';

/**
 * The review kinds of authorization.k8s.io and authentication.k8s.io (`kubectl auth can-i`, `auth can-i --list`,
 * `auth whoami`): nothing is stored, the answer comes back in the status. The emulator checks no permission, so
 * every access review is allowed and every rules review lists everything; the user is the one kubectl
 * impersonates, else the kubeconfig's admin. A body kubectl sends as protobuf is answered without its spec.
 */
export async function serveReview(req: IncomingMessage, res: ServerResponse, rt: ResourceType): Promise<void> {
  if ((req.method ?? 'GET') !== 'POST') throw restfulMethodNotAllowed();
  let spec: unknown;
  try {
    spec = ((await readBody(req)) as { spec?: unknown } | undefined)?.spec;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  const group = (name: string) => req.headers[name.toLowerCase()];
  const asList = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const impersonated = group('Impersonate-User');
  const username = typeof impersonated === 'string' ? impersonated : 'kubernetes-admin';
  const groups = impersonated
    ? [...asList(group('Impersonate-Group')), 'system:authenticated']
    : ['kubeadm:cluster-admins', 'system:authenticated'];
  const status =
    rt.kind === 'SelfSubjectReview'
      ? { userInfo: { username, groups } }
      : rt.kind === 'SelfSubjectRulesReview'
        ? {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          }
        : { allowed: true, reason: EVERYTHING };
  sendJson(res, 201, {
    kind: rt.kind,
    apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version,
    metadata: {},
    ...(spec !== undefined ? { spec } : {}),
    status,
  });
}
