import { parse } from 'yaml';
import type { ResourceBinding } from '../api/binding.ts';
import { parseRefKey, refKey } from '../api/kinds.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { deepEqual } from '../assignments/needsReschedule.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { isIndexPath, INDEX_PATH, type OutputIndex } from '../works/outputIndex.ts';
import { openOutputIndex } from '../outputs/readOutputIndex.ts';
import { LAST_GOOD_TRAILER } from '../outputs/renderRevision.ts';
import { parseTrailers } from '../outputs/outputMessage.ts';
import { RELEASED_PATH, bindingPath, manifestPath } from '../works/outputPaths.ts';
import { compareOutputFiles, type OutputDifference } from './compareOutputFiles.ts';
import { findRenderedCommit } from './findRenderedCommit.ts';

export interface VerifyReport extends OutputDifference {
  outputCommit: string;
  /** The output commit Flotilla wrote, whose Source-Commit was re-rendered. */
  renderedBy: string;
  sourceCommit: string;
  /** Output commits above renderedBy without a Source-Commit trailer: someone committed there by hand. */
  foreignCommits: { oid: string; author: string; subject: string }[];
  /** Paths of held objects (invalid in the source): they keep their last good output and cannot be checked. */
  unchecked: string[];
  /** Number of files compared. */
  checked: number;
  ok: boolean;
}

/**
 * Re-renders the source commit an output commit names and compares every file of its tree with the result:
 * whatever differs, is missing or is extra was not produced by Flotilla from that source. Scheduling starts
 * from the bindings of the output commit before the one that rendered it, as the render did, so steady-mode
 * results come out the same; the render is otherwise fresh, so a file edited in an older commit is caught too.
 */
export async function verifyOutput(repo: GitRepo, opts: { outputRef: string; rev?: string }): Promise<VerifyReport> {
  const found = await findRenderedCommit(repo, opts.outputRef, opts.rev);
  const parent = found.renderedBy.parents[0];
  const previousBindings = parent ? await readBindings(repo, (await readCommitInfo(repo, parent)).tree) : new Map<string, ResourceBinding>();
  // A held render (source commit with no objects) kept the tree of its last good source: that is what it must match.
  const rendersSource = parseTrailers(found.renderedBy.message)[LAST_GOOD_TRAILER] ?? found.source;
  const snapshot = await renderSnapshot(repo, rendersSource, { bindings: previousBindings });

  const files = await listTreeFiles(repo, found.output.tree);
  const blobs = await readBlobs(repo, [...files.values()].map((f) => f.oid));
  const actual = new Map([...files].map(([path, f]) => [path, blobs.get(f.oid)!]));
  const actualIndex = await readIndex(repo, found.output.tree);
  for (const path of [...actual.keys()].filter(isIndexPath)) actual.delete(path);
  // Which deleted templates were released depends on history, not on one source commit: not re-rendered.
  actual.delete(RELEASED_PATH);

  const expected = new Map<string, string>();
  for (const [path, text] of snapshot.output.edits) if (text !== null) expected.set(path, text);
  const heldKeys = [...snapshot.output.explanations].filter(([, e]) => e.held).map(([key]) => key);
  const unchecked = new Set<string>();
  for (const key of heldKeys) {
    const ref = parseRefKey(key);
    unchecked.add(bindingPath(ref));
    for (const c of actualIndex?.templates[key]?.clusters ?? []) unchecked.add(manifestPath(c, ref));
  }

  const diff = compareOutputFiles(expected, actual, unchecked);
  if (!actualIndex || !sameTemplates(actualIndex, snapshot.index, new Set(heldKeys))) diff.differs.push(INDEX_PATH);
  diff.differs.sort();
  const foreignCommits = found.foreign.map((c) => ({ oid: c.oid, author: `${c.author.name} <${c.author.email}>`, subject: c.message.split('\n')[0] ?? '' }));
  return {
    ...diff,
    outputCommit: found.output.oid,
    renderedBy: found.renderedBy.oid,
    sourceCommit: found.source,
    foreignCommits,
    unchecked: [...unchecked].filter((p) => actual.has(p)).sort(),
    checked: new Set([...expected.keys(), ...actual.keys()].filter((p) => !unchecked.has(p))).size + 1,
    ok: diff.differs.length + diff.missing.length + diff.extra.length === 0,
  };
}

async function readBindings(repo: GitRepo, tree: string): Promise<Map<string, ResourceBinding>> {
  const files = [...(await listTreeFiles(repo, tree))].filter(([path]) => path.startsWith('bindings/'));
  const blobs = await readBlobs(repo, files.map(([, f]) => f.oid));
  const out = new Map<string, ResourceBinding>();
  for (const [, f] of files) {
    let b: ResourceBinding | null;
    try {
      b = parse(new TextDecoder().decode(blobs.get(f.oid)!)) as ResourceBinding | null;
    } catch {
      continue; // an unreadable binding only means that template is scheduled afresh
    }
    const r = b?.spec?.resource;
    if (r?.kind && r.name) out.set(refKey({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }), b!);
  }
  return out;
}

/**
 * The index of the output tree, when it can be read and its derived parts (who requires whom, the file count, the
 * Karmada files, the evicting templates) agree with its entries; else undefined, reported as a difference.
 */
async function readIndex(repo: GitRepo, tree: string): Promise<OutputIndex | undefined> {
  try {
    const index = await openOutputIndex(repo, tree);
    if (!index) return undefined;
    await index.loadAll();
    return index.derivedPartsAgree() ? index.toWhole() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The index's templates section must describe what was rendered. Its files section records which source
 * files the incremental renders read, which a fresh render cannot reproduce, so it is not compared.
 */
function sameTemplates(actual: OutputIndex, rendered: OutputIndex, held: ReadonlySet<string>): boolean {
  const keys = new Set([...Object.keys(actual.templates), ...Object.keys(rendered.templates)]);
  for (const key of keys) {
    if (held.has(key)) continue;
    if (!deepEqual(actual.templates[key], rendered.templates[key])) return false;
  }
  return true;
}
