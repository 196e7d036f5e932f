import { parseRefKey } from '../api/kinds.ts';
import { readTemplateSource } from '../audits/readTemplateUnit.ts';
import { readObjectHistory } from '../audits/readObjectHistory.ts';
import { explainMissingHistory } from '../audits/explainMissingHistory.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { renderHistoryTable } from '../audits/renderHistoryTable.ts';
import { openRepo } from '../commits/openRepo.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { resolveResourceType } from '../views/resolveResourceType.ts';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import { UsageError } from '../errors/UsageError.ts';
import type { CommonOptions } from './options.ts';

/**
 * `flotilla history <kind>/<name> [-n NS] [--cluster C]`: which source commits changed what an object
 * became on each cluster, newest first. Exit 0 with a history, 1 when the object never appears.
 */
export async function historyCommand(
  opts: CommonOptions & { target: string; namespace: string | undefined; cluster: string | undefined },
): Promise<number> {
  const [word, name, ...rest] = opts.target.split('/');
  if (!word || !name || rest.length)
    throw new UsageError(`"${opts.target}": use <kind>/<name>, e.g. flotilla history deploy/nginx -n default`);
  // kubectl's words for the built-in kinds, as get, describe, blame and explain take them; any other word is taken
  // as written, since an object's history outlives its kind in the repo.
  const known = resolveResourceType(word, []);
  const kind = known?.type === 'templates' ? known.kind : word;
  const repo = await openRepo(opts.repo);
  const history = await readObjectHistory(repo, opts.outputRef, {
    kind,
    name,
    ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
    ...(opts.cluster !== undefined ? { cluster: opts.cluster } : {}),
  });
  if (opts.output === 'json') opts.out(`${JSON.stringify(history, null, 2)}\n`);
  else if (opts.output === 'yaml') opts.out((await import('yaml')).stringify(history, GO_YAML_DOCUMENT_OPTIONS));
  else if (history.length) {
    // An object a Helm chart or Kustomize folder outputs: the unit (release, value files) at the newest render; a
    // hook (of a unit or a plain file): what Flotilla does with it, as plan and explain say.
    const newest = history.find((h) => !h.foreign);
    const source = newest
      ? await readTemplateSource(
          repo,
          newest.outputCommit,
          (key) => {
            const ref = parseRefKey(key);
            return (
              ref.kind === kind &&
              ref.name === name &&
              (opts.namespace === undefined || ref.namespace === opts.namespace)
            );
          },
          opts.cluster,
        )
      : undefined;
    if (source?.unit || source?.hook)
      opts.out(`source: ${source.unit ?? source.file}${source.hook ? `; ${source.hook}` : ''}\n`);
    opts.out(renderHistoryTable(history));
  }
  if (history.length === 0) {
    opts.err(
      explainMissingHistory(
        {
          kind,
          name,
          typed: opts.target,
          branch: opts.outputRef.replace('refs/heads/', ''),
          ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
          ...(opts.cluster !== undefined ? { cluster: opts.cluster } : {}),
        },
        await headTemplates(repo, opts.outputRef),
      ),
    );
    return 1;
  }
  return 0;
}

/** Every template the output branch's head indexes, with its placement. */
async function headTemplates(repo: GitRepo, outputRef: string): Promise<[string, IndexEntry][]> {
  const head = await readRef(repo, outputRef);
  const index = head ? await openOutputIndex(repo, (await readCommitInfo(repo, head)).tree) : null;
  if (!index) return [];
  await index.loadAll();
  return index.templates();
}
