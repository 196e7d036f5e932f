// A kubeconfig for one member cluster, read the way a pull request cannot turn into a way out: the file is read
// through readConfinedFile, so it lies inside the credentials folder; the files it names itself (CA, client
// certificate and key, token file) are held to the same folder and inlined, so client-node never opens a path;
// a command (user.exec) runs only when the operator allowed it, and auth-provider plugins never (as Flux's
// kustomize-controller, whose sanitised config drops AuthProvider and keeps ExecProvider only with
// --insecure-kubeconfig-exec). Nothing read from a file is ever put into an error.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parseDocument } from 'yaml';
import {
  describeConfinementProblem,
  readConfinedFile,
  type ConfinementProblem,
} from '../confinement/readConfinedFile.ts';

export interface KubeconfigRequest {
  /**
   * The folder the kubeconfig and every file it names must lie in (after realpath); a name from Git is relative
   * to it. Undefined for the operator's own --kubeconfig, which is read where it is.
   */
  root: string | undefined;
  /** As written: kubeconfigRef.path, or the operator's absolute --kubeconfig path. */
  file: string;
  context: string;
  /** --insecure-kubeconfig-exec: run user.exec commands. Off: such a user is refused. */
  allowExec: boolean;
}

export interface LoadedKubeconfig {
  /** One cluster, one user, one context (the one asked for), every file inlined as *-data. */
  kubeconfig: KubeConfig;
  /** The real path of the kubeconfig read. */
  path: string;
  /** Changes when the kubeconfig or any file it names changes (a rotated token or certificate reconnects). */
  fingerprint: string;
}

/** What went wrong, as a sentence and a fix; never a line of the file. */
export interface KubeconfigProblem {
  why: string;
  fix: string;
  /** When the context asked for is missing: the file's context names, for the caller's own fix. */
  contexts?: string[];
}

type Entry = Record<string, unknown>;

/** Fields of a kubeconfig that name files, the *-data field each becomes, and whether the data is base64. */
const CLUSTER_FILES = [['certificate-authority', 'certificate-authority-data', true]] as const;
const USER_FILES = [
  ['client-certificate', 'client-certificate-data', true],
  ['client-key', 'client-key-data', true],
  // kubectl's key is tokenFile; client-node reads token-file (relative to its working folder!). Both become token.
  ['tokenFile', 'token', false],
  ['token-file', 'token', false],
] as const;

export function readKubeconfig(req: KubeconfigRequest): LoadedKubeconfig | KubeconfigProblem {
  const operators = req.root === undefined;
  const root = req.root ?? path.parse(path.resolve(req.file)).root;
  // The operator's file has no folder to stay in: "does not exist under /" would only confuse.
  const describe = (problem: ConfinementProblem) =>
    operators && problem === 'missing' ? 'does not exist' : describeConfinementProblem(problem, root);
  const file = readConfinedFile(root, req.file, { allowAbsolute: operators });
  if ('problem' in file) {
    return {
      why: `kubeconfig ${req.file} ${describe(file.problem)}`,
      fix: operators
        ? 'pass the path of a readable kubeconfig file'
        : `put the kubeconfig in ${req.root} and set spec.kubeconfigRef.path relative to it (e.g. path: members.config), or start the reconciler with --credentials-dir naming the folder that holds it`,
    };
  }
  // Only the position of a parse error is used: the yaml package's message quotes the line.
  const doc = parseDocument(file.bytes.toString('utf8'));
  const first = doc.errors[0];
  if (first)
    return {
      why: `kubeconfig ${req.file} is not valid YAML (line ${first.linePos?.[0].line ?? '?'}, column ${first.linePos?.[0].col ?? '?'})`,
      fix: 'repair the file (kubectl config view --kubeconfig FILE shows what is wrong)',
    };
  const config = doc.toJS() as unknown;
  if (!isEntry(config) || !Array.isArray(config.contexts))
    return {
      why: `kubeconfig ${req.file} is not a kubeconfig (no contexts list)`,
      fix: 'point kubeconfigRef.path at a kubeconfig file',
    };

  const picked = pickContext(config, req.context);
  if ('why' in picked) return { ...picked, why: `kubeconfig ${req.file}: ${picked.why}` };
  const { cluster, user, context } = picked;
  if (user['auth-provider'] !== undefined) {
    return {
      why: `kubeconfig ${req.file}: user of context "${req.context}" uses an auth-provider plugin, which Flotilla never runs for a cluster named in Git`,
      fix: 'use a token or client certificate, or an exec credential plugin (allowed with --insecure-kubeconfig-exec)',
    };
  }
  if (user.exec !== undefined && !req.allowExec) {
    return {
      why: `kubeconfig ${req.file}: user of context "${req.context}" runs a command (user.exec), and this reconciler was not started with --insecure-kubeconfig-exec`,
      fix: 'use a token or client certificate for this cluster, or, if every kubeconfig in the credentials folder is yours, start flotilla run with --insecure-kubeconfig-exec',
    };
  }

  const hash = createHash('sha256').update(file.bytes).update(`\0${req.context}\0`);
  const folder = path.dirname(file.path);
  const inline = (
    entry: Entry,
    fields: readonly (readonly [string, string, boolean])[],
    what: string,
  ): KubeconfigProblem | undefined => {
    for (const [fileKey, dataKey, base64] of fields) {
      const named = entry[fileKey];
      if (named === undefined || named === null || named === '') continue;
      delete entry[fileKey];
      if (typeof named !== 'string')
        return {
          why: `kubeconfig ${req.file}: ${what}.${fileKey} is not a path`,
          fix: `write ${what}.${fileKey} as a path, or inline it as ${dataKey}`,
        };
      if (entry[dataKey] !== undefined) continue; // kubectl: the inline data wins over the file
      const ref = readConfinedFile(root, named, { base: folder, allowAbsolute: true });
      if ('problem' in ref) {
        return {
          why: `kubeconfig ${req.file}: ${what}.${fileKey} ${named} ${describe(ref.problem)}`,
          fix: `put that file in ${root} (relative paths resolve against the kubeconfig's own folder), or inline it as ${what}.${dataKey}`,
        };
      }
      hash.update(ref.bytes);
      entry[dataKey] = base64 ? ref.bytes.toString('base64') : ref.bytes.toString('utf8').trim();
    }
    return undefined;
  };
  const inlined = inline(cluster, CLUSTER_FILES, 'cluster') ?? inline(user, USER_FILES, 'user');
  if (inlined) return inlined;

  const kubeconfig = new KubeConfig();
  try {
    kubeconfig.loadFromString(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': req.context,
        clusters: [{ name: 'cluster', cluster }],
        users: [{ name: 'user', user }],
        contexts: [{ name: req.context, context: { ...context, cluster: 'cluster', user: 'user' } }],
      }),
    );
  } catch {
    // client-node's own words could quote the file; ours name the place.
    return {
      why: `kubeconfig ${req.file}: context "${req.context}" has a malformed cluster or user entry`,
      fix: 'repair the file (kubectl config view --kubeconfig FILE shows what is wrong)',
    };
  }
  return { kubeconfig, path: file.path, fingerprint: hash.digest('hex') };
}

/** The context's own cluster and user entries, copied (they are edited). Pure. */
function pickContext(config: Entry, name: string): { cluster: Entry; user: Entry; context: Entry } | KubeconfigProblem {
  const named = (list: unknown, n: unknown): Entry | undefined =>
    Array.isArray(list) ? (list as unknown[]).find((e): e is Entry => isEntry(e) && e.name === n) : undefined;
  const ctx = named(config.contexts, name);
  if (!ctx || !isEntry(ctx.context)) {
    const names = (config.contexts as unknown[])
      .filter(isEntry)
      .map((c) => String(c.name))
      .slice(0, 20);
    return {
      why: `has no context "${name}"`,
      fix: `set spec.kubeconfigRef.context to one of ${names.join(', ') || '(none)'}`,
      contexts: names,
    };
  }
  const clusterEntry = named(config.clusters, ctx.context.cluster);
  if (!clusterEntry || !isEntry(clusterEntry.cluster) || typeof clusterEntry.cluster.server !== 'string') {
    return {
      why: `context "${name}" names a cluster the file does not define (or one without a server)`,
      fix: 'repair the clusters section of the kubeconfig',
    };
  }
  const userEntry = ctx.context.user === undefined ? { user: {} } : named(config.users, ctx.context.user);
  if (!userEntry || !isEntry(userEntry.user ?? {}))
    return {
      why: `context "${name}" names a user the file does not define`,
      fix: 'repair the users section of the kubeconfig',
    };
  return {
    cluster: { ...clusterEntry.cluster },
    user: { ...((userEntry.user as Entry | undefined) ?? {}) },
    context: { ...ctx.context },
  };
}

function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
