import { pushHint } from './pushHint.ts';
import type { ClusterOperation } from './clusterOperations.ts';
import { execFile } from 'node:child_process';
import nodePath from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { openRepo } from '../commits/openRepo.ts';
import { repoAround } from '../commits/repoAround.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitIdentity, GitRepo } from '../commits/types.ts';
import { isDNS1123Label } from '../documents/schema/kubernetesNames.ts';
import { ALLOW_PRUNE_TRAILER } from '../deliveries/checkPruneSafety.ts';
import { buildClusterYaml } from '../registrations/buildClusterYaml.ts';
import { commitRegistration, readBase, type RegistrationTarget } from '../registrations/commitRegistration.ts';
import { editClusterFile, type ClusterEdit } from '../registrations/editClusterFile.ts';
import { findClusterFile } from '../registrations/findClusterFile.ts';
import { parseTaintArgs } from '../registrations/parseTaintArgs.ts';
import { readKubeconfigContext } from '../registrations/readKubeconfigContext.ts';
import { RegistrationError } from '../registrations/RegistrationError.ts';
import { UsageError } from '../errors/UsageError.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { DEFAULT_SOURCE_LIMITS, sourceTooLargeToRead, sourceTreeEntries } from '../outputs/sourceLimits.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';

/** The source branch is a pull request's to make: its tree is listed within a render's bound. */
const SOURCE_WALK = { maxEntries: sourceTreeEntries(DEFAULT_SOURCE_LIMITS) };

export interface ClusterCommandContext {
  out: (s: string) => void;
  err: (s: string) => void;
  /** GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL, as git reads them. */
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
}

const USAGE: Record<ClusterOperation, string> = {
  join: 'flotilla join NAME --kubeconfig FILE [--credentials-dir DIR] [--context C] [--provider P] [--region R] [--zones a,b] [--labels k=v,…] [--sync-mode Push|Pull]',
  unjoin: 'flotilla unjoin NAME [--allow-prune]',
  cordon: 'flotilla cordon NAME',
  uncordon: 'flotilla uncordon NAME',
  taint: 'flotilla taint NAME key=value:Effect|key:Effect|key:Effect-|key- … [--overwrite]',
};
const COMMON_USAGE = '[--repo DIR] [--source-branch main] [--branch B] [--reason TEXT] [--author "Name <email>"]';

/**
 * `flotilla join|unjoin|cordon|uncordon|taint`: karmadactl's cluster verbs, done as one commit to the config
 * repo's clusters/ (or to --branch, to open a pull request from). Exit 0 done (or nothing to do), 1 refused.
 */
export async function clusterCommand(
  operation: ClusterOperation,
  argv: string[],
  ctx: ClusterCommandContext,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      repo: { type: 'string' },
      'source-branch': { type: 'string', default: 'main' },
      branch: { type: 'string' },
      reason: { type: 'string' },
      author: { type: 'string' },
      overwrite: { type: 'boolean', default: false },
      'allow-prune': { type: 'boolean', default: false },
      'rendered-branch': { type: 'string', default: RENDERED_BRANCH },
      kubeconfig: { type: 'string' },
      'credentials-dir': { type: 'string', default: '.' },
      context: { type: 'string' },
      provider: { type: 'string' },
      region: { type: 'string' },
      zones: { type: 'string' },
      labels: { type: 'string' },
      'sync-mode': { type: 'string', default: 'Push' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    ctx.out(`Usage: ${USAGE[operation]}\n       ${' '.repeat(9 + operation.length)}${COMMON_USAGE}\n`);
    return 0;
  }
  const [name, ...rest] = positionals;
  if (!name) throw new UsageError(`${operation} needs a cluster name: ${USAGE[operation]}`);
  if (operation !== 'taint' && rest.length)
    throw new UsageError(`${operation} takes one cluster name, got: ${positionals.join(' ')}`);
  if (operation === 'taint' && rest.length === 0)
    throw new UsageError(`taint needs at least one taint: ${USAGE.taint}`);

  const repo = await openRepo(values.repo ?? repoAround('.'));
  const target: RegistrationTarget = {
    repo,
    sourceBranch: values['source-branch'] ?? 'main',
    ...(values.branch ? { branch: values.branch } : {}),
  };
  let base: Awaited<ReturnType<typeof readBase>> | undefined;
  try {
    const author = await readAuthor(repo, values.author, ctx.env, ctx.now());
    base = await readBase(target);
    let change: { path: string; text: string | null; summary: string[]; result: string; notes: string[] };
    if (operation === 'join') {
      change = await planJoin(repo, base.base.tree, name, values);
    } else {
      const file = await findClusterFile(repo, base.base.tree, name, SOURCE_WALK);
      if (!file) {
        throw new RegistrationError(
          'CLUSTER_NOT_FOUND',
          `no Cluster named ${name} is registered on ${base.ref.replace('refs/heads/', '')}; fix: check the name (flotilla get clusters${values.repo && values.repo !== '.' ? ` --repo ${values.repo}` : ''})${operation === 'unjoin' ? '' : ', or register it with flotilla join'}`,
        );
      }
      // karmadactl unjoin refuses a Pull cluster: its agent is what registered it, and must go first.
      if (operation === 'unjoin' && syncModeOf(file.text, name) === 'Pull')
        throw new RegistrationError(
          'PULL_MODE_CLUSTER',
          `cluster ${name} is a Pull mode member cluster; fix: stop its flotilla agent, then remove ${file.path} by a commit`,
        );
      const edit: ClusterEdit =
        operation === 'taint'
          ? { type: 'taint', changes: parseTaintArgs(rest), overwrite: values.overwrite ?? false, now: ctx.now() }
          : operation === 'cordon'
            ? { type: 'cordon' }
            : operation === 'uncordon'
              ? { type: 'uncordon' }
              : { type: 'remove' };
      const edited = editClusterFile(file.path, file.text, name, edit);
      const notes =
        operation === 'unjoin'
          ? await describeDrop(
              repo,
              `refs/heads/${values['rendered-branch'] ?? RENDERED_BRANCH}`,
              name,
              values['allow-prune'] ?? false,
            )
          : [];
      change = {
        path: file.path,
        text: edited.text,
        summary: edited.summary,
        result: resultWord(edit),
        notes,
      };
    }
    if (change.summary.length === 0) {
      ctx.out(
        `cluster/${name} already ${operation === 'cordon' ? 'cordoned' : operation === 'uncordon' ? 'uncordoned' : 'as asked'}; nothing to commit\n`,
      );
      return 0;
    }
    const message = buildMessage(
      operation,
      name,
      values.reason,
      change.summary,
      operation === 'unjoin' && values['allow-prune'] ? (values.reason ?? `unjoin ${name}`) : undefined,
    );
    const done = await commitRegistration(target, base, { path: change.path, text: change.text }, message, author);
    const branch = done.ref.replace('refs/heads/', '');
    ctx.out(
      `cluster/${name} ${change.result}\n[${branch}${done.created ? ' (new branch)' : ''} ${done.commit.slice(0, 12)}] ${message.split('\n')[0]}\n`,
    );
    for (const line of change.summary) ctx.out(`  ${line}\n`);
    for (const line of change.notes) ctx.out(`${line}\n`);
    const unpushed = values.branch ? undefined : await pushHint(target.repo, branch);
    if (unpushed) ctx.out(unpushed);
    if (values.branch) {
      ctx.out(
        `${target.sourceBranch} is untouched. To propose this change: git push origin ${branch}, then open a pull request from ${branch} into ${target.sourceBranch} (gh pr create --base ${target.sourceBranch} --head ${branch}); flotilla plan --base ${target.sourceBranch} --head ${branch} shows what it does per cluster.\n`,
      );
    }
    return 0;
  } catch (err) {
    // The branch's tree is a pull request's to make: one past the bound is refused, naming the commit and the fix.
    if (err instanceof TreeTooLargeError && base) {
      const { message, fix } = sourceTooLargeToRead(base.base.oid, err, `flotilla ${operation}`, false);
      ctx.err(`flotilla: ${message}; fix: ${fix}\n`);
      return 1;
    }
    if (!(err instanceof RegistrationError)) throw err;
    ctx.err(`flotilla: ${err.message}\n`);
    return 1;
  }
}

async function planJoin(
  repo: GitRepo,
  tree: string,
  name: string,
  values: {
    kubeconfig?: string | undefined;
    'credentials-dir'?: string | undefined;
    context?: string | undefined;
    provider?: string | undefined;
    region?: string | undefined;
    zones?: string | undefined;
    labels?: string | undefined;
    'sync-mode'?: string | undefined;
  },
) {
  // Karmada limits cluster names to 48 characters: they become parts of longer names (karmada-es-<name>).
  if (!isDNS1123Label(name) || name.length > 48) {
    throw new RegistrationError(
      'BAD_NAME',
      `cluster name "${name}" is not a DNS label of at most 48 characters; fix: use lowercase letters, digits and '-', starting and ending alphanumeric`,
    );
  }
  if (!values.kubeconfig) throw new UsageError(`join needs --kubeconfig: ${USAGE.join}`);
  const syncMode = values['sync-mode'];
  if (syncMode !== 'Push' && syncMode !== 'Pull') throw new UsageError(`--sync-mode ${syncMode}: use Push or Pull`);
  const existing = await findClusterFile(repo, tree, name, SOURCE_WALK);
  if (existing)
    throw new RegistrationError(
      'CLUSTER_EXISTS',
      `cluster ${name} is already registered in ${existing.path}; fix: pick another name, or unjoin ${name} first`,
    );
  const path = `clusters/${name}.yaml`;
  if ((await listTreeFiles(repo, tree, SOURCE_WALK)).has(path)) {
    throw new RegistrationError(
      'CLUSTER_EXISTS',
      `${path} already exists and registers no cluster ${name}; fix: rename that file, or register the cluster by hand`,
    );
  }
  const { context, server } = await readKubeconfigContext(values.kubeconfig, values.context);
  // The reconciler reads a kubeconfigRef only relative to, and inside, its --credentials-dir: write it that way.
  const credentialsDir = nodePath.resolve(values['credentials-dir'] ?? '.');
  const kubeconfigPath = nodePath.relative(credentialsDir, nodePath.resolve(values.kubeconfig));
  if (!kubeconfigPath || kubeconfigPath.split(nodePath.sep)[0] === '..' || nodePath.isAbsolute(kubeconfigPath)) {
    throw new RegistrationError(
      'BAD_KUBECONFIG',
      `--kubeconfig ${values.kubeconfig} is not inside --credentials-dir ${credentialsDir}, the only folder the reconciler reads kubeconfigs from; fix: move the file there, or pass --credentials-dir naming the folder flotilla run uses`,
    );
  }
  const text = buildClusterYaml({
    name,
    syncMode,
    kubeconfigPath: kubeconfigPath.split(nodePath.sep).join('/'),
    context,
    ...(values.provider ? { provider: values.provider } : {}),
    ...(values.region ? { region: values.region } : {}),
    ...(values.zones
      ? {
          zones: values.zones
            .split(',')
            .map((z) => z.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values.labels ? { labels: parseLabels(values.labels) } : {}),
  });
  return {
    path,
    text,
    summary: [
      `registered ${name} (${syncMode}) in ${path}: kubeconfig ${kubeconfigPath} (in ${credentialsDir}), context ${context}${server ? ` (${server})` : ''}`,
    ],
    result: 'joined',
    notes: [],
  };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--labels ${text}: write key=value pairs separated by commas`);
    labels[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return labels;
}

/**
 * karmadactl's word for what happened (taint's reorganizeTaints): with --overwrite, or adding and removing at once,
 * "modified"; adding, "tainted"; removing, "untainted".
 */
function resultWord(edit: ClusterEdit): string {
  if (edit.type !== 'taint') return { cordon: 'cordoned', uncordon: 'uncordoned', remove: 'unjoined' }[edit.type];
  const adds = edit.changes.some((c) => c.action === 'add');
  const removes = edit.changes.some((c) => c.action === 'remove');
  return edit.overwrite || (adds && removes) ? 'modified' : adds ? 'tainted' : 'untainted';
}

/** Subject says what and why; the body lists each change; a trailer names the operation for tools. */
export function buildMessage(
  operation: ClusterOperation,
  name: string,
  reason: string | undefined,
  summary: readonly string[],
  allowPrune: string | undefined,
): string {
  const subject = `${operation} ${name}${reason ? `: ${reason.split('\n')[0]}` : ''}`;
  const trailers = [
    `Flotilla-Operation: ${operation} ${name}`,
    ...(allowPrune ? [`${ALLOW_PRUNE_TRAILER}: ${allowPrune.split('\n')[0]}`] : []),
  ];
  return `${subject}\n\n${summary.join('\n')}\n\n${trailers.join('\n')}\n`;
}

/** What unjoin takes off the cluster, from the rendered branch, and what the guards do about it. */
async function describeDrop(repo: GitRepo, renderedRef: string, name: string, allowPrune: boolean): Promise<string[]> {
  const head = await readRef(repo, renderedRef);
  if (!head)
    return [
      `${renderedRef.replace('refs/heads/', '')} does not exist yet: nothing was rendered for ${name}, so nothing is dropped.`,
    ];
  const files = [...(await listTreeFiles(repo, (await readCommitInfo(repo, head)).tree)).keys()].filter((p) =>
    p.startsWith(`clusters/${name}/`),
  );
  if (files.length === 0) return [`Nothing is rendered for ${name}: no objects are dropped.`];
  const shown = files.slice(0, 10).map((p) => `  - ${p.slice(`clusters/${name}/`.length).replace(/\.yaml$/, '')}`);
  return [
    `The next render drops ${files.length} object(s) rendered for ${name} (clusters/${name}/ on ${renderedRef.replace('refs/heads/', '')}):`,
    ...shown,
    ...(files.length > 10 ? [`  … and ${files.length - 10} more`] : []),
    `Placements move to the remaining clusters. The applier never prunes a cluster whose folder is gone, so these objects keep running on ${name} until you delete them there.`,
    allowPrune
      ? `This commit carries ${ALLOW_PRUNE_TRAILER}, so flotilla plan lets the removal through.`
      : `flotilla plan holds this change (it removes everything on ${name}) unless the commit carries ${ALLOW_PRUNE_TRAILER}: run unjoin with --allow-prune --reason TEXT to add it.`,
  ];
}

/** --author, else GIT_AUTHOR_NAME/EMAIL, else git config user.name/user.email, else Flotilla's own identity. */
async function readAuthor(
  repo: GitRepo,
  flag: string | undefined,
  env: ClusterCommandContext['env'],
  now: Date,
): Promise<GitIdentity> {
  const when = { timestamp: Math.floor(now.getTime() / 1000), timezoneOffset: now.getTimezoneOffset() };
  if (flag) {
    const m = /^\s*([^<>]+?)\s*<([^<>\s]+)>\s*$/.exec(flag);
    if (!m) throw new UsageError(`--author ${flag}: write "Name <email>"`);
    return { name: m[1]!, email: m[2]!, ...when };
  }
  const name = env.GIT_AUTHOR_NAME ?? (await gitConfig(repo, 'user.name'));
  const email = env.GIT_AUTHOR_EMAIL ?? (await gitConfig(repo, 'user.email'));
  return { name: name || 'Flotilla', email: email || 'flotilla@localhost', ...when };
}

/** Native git reads every config level (system, global, repo); the value or '' when unset or git is absent. */
function gitConfig(repo: GitRepo, key: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['--git-dir', repo.gitdir, 'config', '--get', key], { encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? '' : stdout.trim()),
    );
  });
}

/** spec.syncMode of the Cluster named `name` in a file's documents. */
function syncModeOf(text: string, name: string): unknown {
  for (const doc of parseAllDocuments(text)) {
    const value = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown }; spec?: { syncMode?: unknown } } | null;
    if (value?.kind === 'Cluster' && value.metadata?.name === name) return value.spec?.syncMode;
  }
  return undefined;
}
