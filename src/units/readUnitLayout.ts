import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import type { GitRepo, TreeChange, TreeFile } from '../commits/types.ts';
import { IGNORE_FILE, isConfigFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import { detectUnits, markerTool, type UnitLayout } from './detectUnits.ts';
import { parseKustomization } from './parseKustomization.ts';
import { UNIT_CACHE_DIR } from './unitOutputCache.ts';

const LAYOUT_FILE = 'layout.json';
/** Bumped when detection changes what a layout holds: layouts saved before are computed again. */
const LAYOUT_VERSION = 2;
const layouts = new WeakMap<GitRepo, { tree: string; layout: UnitLayout }>();

/**
 * The Helm and Kustomize units of a tree (detectUnits over its file list and kustomizations). Which folders are
 * units, and what each reads, changes only when a chart or kustomization file does: a commit that changes none keeps
 * the layout of the tree before it (kept in memory and beside the object store), and only a commit that does lists
 * the whole tree again.
 */
export async function readUnitLayout(
  repo: GitRepo,
  tree: string,
  ignore: IgnoreRules | undefined,
  previous?: { tree: string; changes: readonly TreeChange[] },
  listed?: ReadonlyMap<string, TreeFile>,
): Promise<UnitLayout> {
  const known = layouts.get(repo) ?? readSaved(repo);
  if (known?.tree === tree) return known.layout;
  if (known && previous && known.tree === previous.tree && !changesLayout(known.layout, previous.changes)) {
    await remember(repo, tree, known.layout);
    return known.layout;
  }
  const layout = await computeLayout(repo, tree, ignore, listed);
  await remember(repo, tree, layout);
  return layout;
}

/**
 * readUnitLayout after a change, with the layout before it when the change could alter which folders are units:
 * then the units that appeared render (whatever changed in their folders) and those that went drop their objects.
 */
export async function readUnitLayoutChange(
  repo: GitRepo,
  tree: string,
  ignore: IgnoreRules | undefined,
  previous: { tree: string; changes: readonly TreeChange[] },
): Promise<{ layout: UnitLayout; before?: UnitLayout }> {
  const known = layouts.get(repo) ?? readSaved(repo);
  const layout = await readUnitLayout(repo, tree, ignore, previous);
  if (!previous.changes.some((c) => markerTool(baseName(c.path)) !== undefined || c.path === IGNORE_FILE))
    return { layout };
  const before =
    known?.tree === previous.tree ? known.layout : await computeLayout(repo, previous.tree, ignore, undefined);
  return { layout, before };
}

async function computeLayout(
  repo: GitRepo,
  tree: string,
  ignore: IgnoreRules | undefined,
  listed: ReadonlyMap<string, TreeFile> | undefined,
): Promise<UnitLayout> {
  const files = listed ?? (await listTreeFiles(repo, tree));
  const included = (marker: string) => isConfigFile(marker.replace(/Kustomization$/, 'kustomization.yaml'), ignore);
  const markers = [...files.keys()].filter((p) => markerTool(baseName(p)) === 'kustomize' && included(p));
  const blobs = await readBlobs(
    repo,
    markers.map((p) => files.get(p)!.oid),
  );
  const decoder = new TextDecoder();
  return detectUnits(
    [...files.keys()],
    (marker) => parseKustomization(marker, decoder.decode(blobs.get(files.get(marker)!.oid) ?? new Uint8Array())),
    included,
  );
}

/**
 * Whether a change can make other folders units or change what they read: a chart or kustomization file, the ignore
 * rules, or, while some kustomization names a path the commit lacks, any file added or removed.
 */
function changesLayout(layout: UnitLayout, changes: readonly TreeChange[]): boolean {
  const waiting = layout.units.some((u) => u.problems.length > 0);
  return changes.some(
    (c) =>
      markerTool(baseName(c.path)) !== undefined || c.path === IGNORE_FILE || (waiting && (!c.oldOid || !c.newOid)),
  );
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function readSaved(repo: GitRepo): { tree: string; layout: UnitLayout } | undefined {
  try {
    const saved = JSON.parse(readFileSync(path.join(repo.gitdir, UNIT_CACHE_DIR, LAYOUT_FILE), 'utf8'));
    return saved.v === LAYOUT_VERSION ? { tree: saved.tree, layout: saved.layout } : undefined;
  } catch {
    return undefined;
  }
}

async function remember(repo: GitRepo, tree: string, layout: UnitLayout): Promise<void> {
  layouts.set(repo, { tree, layout });
  try {
    const dir = path.join(repo.gitdir, UNIT_CACHE_DIR);
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, LAYOUT_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ v: LAYOUT_VERSION, tree, layout }));
    await rename(tmp, file);
  } catch {
    // Listed again next time.
  }
}
