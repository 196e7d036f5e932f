import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobsWithin } from '../commits/readBlobs.ts';
import { oversizedUnitFile, UNIT_READ_LIMITS } from './readUnitFiles.ts';
import type { GitRepo, TreeChange, TreeFile } from '../commits/types.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import type { Problem } from '../errors/problem.ts';
import { IGNORE_FILE, isConfigFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import { detectUnits, markerTool, resolveRelative, type UnitLayout } from './detectUnits.ts';
import { parseKustomization, type KustomizationReference } from './parseKustomization.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { resolveValueFile, valueFileInputs, type CommitEntry, type ValueFileRef } from './helmValueFiles.ts';
import { parseUnitOptions, UNIT_OPTIONS_FILE } from './unitOptions.ts';
import { isValueFileGlob, matchValueFileGlob, mayMatchValueFileGlob } from './valueFileGlobs.ts';
import { UNIT_CACHE_DIR } from './unitOutputCache.ts';
import { staleChartLock } from './chartLock.ts';
import { chartVersionOf, localChartDependencies, type LocalChartDependency } from './chartDependencies.ts';

const LAYOUT_FILE = 'layout.json';
/** Where `helm dependency build` records a chart's dependencies: it can name a `file://` one too. */
const CHART_LOCK = 'Chart.lock';
/** Bumped when detection changes what a layout holds: layouts saved before are computed again. */
const LAYOUT_VERSION = 12;
const layouts = new WeakMap<GitRepo, { tree: string; layout: UnitLayout }>();

/**
 * The Helm and Kustomize units of a tree (detectUnits over its file list, kustomizations and charts' options). Which
 * folders are units, and what each reads, changes only when a chart, kustomization or options file (or a value file
 * outside a chart) does: a commit that changes none keeps the layout of the tree before it (kept in memory and beside
 * the object store), and only a commit that does lists the whole tree again, within `limit` (a source tree's bound:
 * TreeTooLargeError past it).
 */
export async function readUnitLayout(
  repo: GitRepo,
  tree: string,
  ignore: IgnoreRules | undefined,
  limit: TreeWalkLimit,
  previous?: { tree: string; changes: readonly TreeChange[] },
  listed?: ReadonlyMap<string, TreeFile>,
): Promise<UnitLayout> {
  const known = layouts.get(repo) ?? readSaved(repo);
  if (known?.tree === tree) return known.layout;
  if (known && previous && known.tree === previous.tree && !changesLayout(known.layout, previous.changes)) {
    await remember(repo, tree, known.layout);
    return known.layout;
  }
  const layout = await computeLayout(repo, tree, ignore, listed, limit);
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
  limit: TreeWalkLimit,
): Promise<{ layout: UnitLayout; before?: UnitLayout }> {
  const known = layouts.get(repo) ?? readSaved(repo);
  const layout = await readUnitLayout(repo, tree, ignore, limit, previous);
  if (
    !previous.changes.some(
      (c) =>
        namesUnitInputs(c.path) ||
        known?.layout.watchedFiles?.includes(c.path) ||
        (known && matchesWatchedGlob(known.layout, c)),
    )
  )
    return { layout };
  const before =
    known?.tree === previous.tree ? known.layout : await computeLayout(repo, previous.tree, ignore, undefined, limit);
  return { layout, before };
}

async function computeLayout(
  repo: GitRepo,
  tree: string,
  ignore: IgnoreRules | undefined,
  listed: ReadonlyMap<string, TreeFile> | undefined,
  limit: TreeWalkLimit,
): Promise<UnitLayout> {
  const files = listed ?? (await listTreeFiles(repo, tree, limit));
  const included = (marker: string) => isConfigFile(marker.replace(/Kustomization$/, 'kustomization.yaml'), ignore);
  const markers = [...files.keys()].filter((p) => markerTool(baseName(p)) === 'kustomize' && included(p));
  const { blobs, tooLarge } = await readBlobsWithin(
    repo,
    markers.map((p) => files.get(p)!.oid),
    UNIT_READ_LIMITS.maxFileBytes,
  );
  const decoder = new TextDecoder();
  const optionComponents = await readOptionComponents(repo, files, markers);
  const parsed = (marker: string) => {
    const named = parsedMarker(marker);
    const extra = optionComponents.get(marker.slice(0, marker.lastIndexOf('/')));
    return extra ? { ...named, references: [...named.references, ...extra] } : named;
  };
  const parsedMarker = (marker: string) => {
    const oid = files.get(marker)!.oid;
    // A link's blob is the path it points to, not a kustomization: refused, a base as much as a unit.
    if (files.get(marker)!.mode === SYMLINK)
      return {
        references: [],
        problems: [linkedMarker(marker, 'kustomize', decoder.decode(blobs.get(oid) ?? new Uint8Array()) || '?')],
      };
    const size = tooLarge.get(oid);
    return size === undefined
      ? parseKustomization(marker, decoder.decode(blobs.get(oid) ?? new Uint8Array()))
      : { references: [], problems: [oversizedUnitFile(marker, size)] };
  };
  const valueFiles = await readValueFiles(repo, files, included);
  const dependencies = await readChartDependencies(repo, files);
  const layout = detectUnits(
    [...files.keys()],
    parsed,
    included,
    (dir) => valueFiles.get(dir) ?? { files: [], problems: [], watched: [], watchedGlobs: [] },
    (dir) => dependencies.deps.get(dir) ?? [],
    (dir) => dependencies.versions.get(dir),
  );
  const linked = layout.units.filter((u) => u.tool === 'helm' && files.get(u.marker)?.mode === SYMLINK);
  if (linked.length === 0) return layout;
  const targets = await readBlobsWithin(
    repo,
    linked.map((u) => files.get(u.marker)!.oid),
    MAX_LINK_TARGET_BYTES,
  );
  for (const unit of linked) {
    const bytes = targets.blobs.get(files.get(unit.marker)!.oid);
    unit.problems = [linkedMarker(unit.marker, 'helm', bytes ? decoder.decode(bytes) : '?'), ...unit.problems];
  }
  return layout;
}

const SYMLINK = '120000';
/** Linux's PATH_MAX: a link's target is a path, and a longer blob is no target any system follows. */
const MAX_LINK_TARGET_BYTES = 4096;

/**
 * A unit whose Chart.yaml or kustomization is a symbolic link (pure). Helm and kustomize would follow it, wherever it
 * points (`/etc/passwd` too); a render copies the commit's files out and no link, so the tool would find no Chart.yaml
 * (helm's "Chart.yaml file is missing", or no folder at all to start in) and a kustomization would be the link's text.
 */
export function linkedMarker(marker: string, tool: 'helm' | 'kustomize', target: string): Problem {
  const what = tool === 'helm' ? 'the chart' : 'the kustomization';
  return {
    file: marker,
    line: 1,
    column: 1,
    code: 'SYMLINK_NOT_FOLLOWED',
    severity: 'error',
    message: `${marker} is a symbolic link (to ${target.slice(0, 200)}), which a render does not follow: ${what} is read from the files the commit holds, and a link's content is the path it points to`,
    fix: `commit the file itself in place of the link (\`cp --remove-destination "$(readlink -f ${marker})" ${marker}\`); until then the unit's last good output is kept`,
  };
}

/**
 * Each chart's `file://` dependencies, by its folder: those its Chart.yaml declares, and those only its Chart.lock
 * names (helm dependency build follows the lock), and each chart's version. Reads only the charts' Chart.yaml and
 * Chart.lock files.
 */
async function readChartDependencies(
  repo: GitRepo,
  files: ReadonlyMap<string, TreeFile>,
): Promise<{ deps: Map<string, LocalChartDependency[]>; versions: Map<string, string> }> {
  const named = [...files.keys()].filter(
    (p) => (baseName(p) === 'Chart.yaml' || baseName(p) === CHART_LOCK) && files.get(p)!.mode !== '120000',
  );
  // One over the limit is left unread here: the unit's render refuses it at the file.
  const { blobs } = await readBlobsWithin(
    repo,
    named.map((p) => files.get(p)!.oid),
    UNIT_READ_LIMITS.maxFileBytes,
  );
  const out = new Map<string, LocalChartDependency[]>();
  const versions = new Map<string, string>();
  const decoder = new TextDecoder();
  // Chart.yaml first: where a dependency is written in both, its line there is the one to fix.
  for (const p of named.sort((a, b) => Number(baseName(a) === CHART_LOCK) - Number(baseName(b) === CHART_LOCK))) {
    const bytes = blobs.get(files.get(p)!.oid);
    if (!bytes) continue;
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    const text = decoder.decode(bytes);
    if (baseName(p) === 'Chart.yaml') {
      const version = chartVersionOf(text);
      if (version !== undefined) versions.set(dir, version);
    }
    const had = out.get(dir) ?? [];
    const found = localChartDependencies(p, text);
    // The lock's version of a dependency Chart.yaml declares is the one helm dependency build checks.
    if (baseName(p) === CHART_LOCK)
      for (const d of found) {
        const declared = had.find((h) => h.name === d.name);
        if (declared && d.version !== undefined) declared.locked = d.version;
      }
    const added = found.filter((d) => !had.some((h) => h.name === d.name));
    if (added.length > 0) out.set(dir, [...had, ...added]);
  }
  // A lock out of sync with Chart.yaml stops helm dependency build before it copies anything.
  for (const [dir, deps] of out) {
    const prefix = dir === '' ? '' : `${dir}/`;
    const [chart, lock] = [`${prefix}Chart.yaml`, `${prefix}${CHART_LOCK}`].map((p) => {
      const f = files.get(p);
      const bytes = f ? blobs.get(f.oid) : undefined;
      return bytes ? decoder.decode(bytes) : undefined;
    });
    const stale =
      chart !== undefined && lock !== undefined ? staleChartLock(`${prefix}${CHART_LOCK}`, chart, lock) : undefined;
    if (stale) for (const d of deps) d.staleLock = stale;
  }
  return { deps: out, versions };
}

/**
 * The components each Kustomize unit's flotilla-unit.yaml adds (spec.components), by folder, as references of its
 * kustomization named at their lines of the options file: inputs of the unit like the kustomization's own. With
 * ignoreMissingComponents, one the commit lacks is left out, as Argo CD leaves it out.
 */
async function readOptionComponents(
  repo: GitRepo,
  files: ReadonlyMap<string, TreeFile>,
  markers: readonly string[],
): Promise<Map<string, KustomizationReference[]>> {
  const dirs = [...new Set(markers.filter((m) => m.includes('/')).map((m) => m.slice(0, m.lastIndexOf('/'))))].filter(
    (dir) => files.has(`${dir}/${UNIT_OPTIONS_FILE}`),
  );
  const out = new Map<string, KustomizationReference[]>();
  if (dirs.length === 0) return out;
  const { blobs } = await readBlobsWithin(
    repo,
    dirs.map((dir) => files.get(`${dir}/${UNIT_OPTIONS_FILE}`)!.oid),
    UNIT_READ_LIMITS.maxFileBytes,
  );
  const paths = [...files.keys()];
  const exists = (p: string) => files.has(p) || paths.some((f) => f.startsWith(`${p}/`));
  for (const dir of dirs) {
    const optionsFile = `${dir}/${UNIT_OPTIONS_FILE}`;
    const bytes = blobs.get(files.get(optionsFile)!.oid);
    const doc = bytes ? parseDocuments(optionsFile, bytes).documents[0] : undefined;
    const written = doc ? parseUnitOptions('kustomize', optionsFile, [doc]).options : undefined;
    if (written?.tool !== 'kustomize' || !written.kustomize.components) continue;
    const ignoreMissing = written.kustomize.ignoreMissingComponents === true;
    const refs: KustomizationReference[] = [];
    written.kustomize.components.forEach((path, i) => {
      const resolved = resolveRelative(dir, path);
      if (ignoreMissing && resolved !== undefined && !exists(resolved)) return;
      const at = doc!.locate(['spec', 'components', i]);
      refs.push({ path, folderAllowed: true, line: at.line, column: at.column, file: optionsFile });
    });
    if (refs.length > 0) out.set(dir, refs);
  }
  return out;
}

/**
 * Each chart's value files as its flotilla-unit.yaml names them, resolved in the commit (helmValueFiles.ts): the
 * files outside its folder it reads, and the problems that keep it from running. Reads only the options files of
 * charts and the few files they name.
 */
async function readValueFiles(
  repo: GitRepo,
  files: ReadonlyMap<string, TreeFile>,
  included: (marker: string) => boolean,
): Promise<Map<string, ReturnType<typeof valueFileInputs>>> {
  const charts = [...files.keys()]
    .filter((p) => markerTool(baseName(p)) === 'helm' && p.includes('/') && included(p))
    .map((p) => p.slice(0, p.lastIndexOf('/')))
    .filter((dir) => files.has(`${dir}/${UNIT_OPTIONS_FILE}`));
  const out = new Map<string, ReturnType<typeof valueFileInputs>>();
  if (charts.length === 0) return out;
  const { blobs: optionBlobs } = await readBlobsWithin(
    repo,
    charts.map((dir) => files.get(`${dir}/${UNIT_OPTIONS_FILE}`)!.oid),
    UNIT_READ_LIMITS.maxFileBytes,
  );
  const named = new Map<string, ValueFileRef[]>();
  const ignoreMissing = new Set<string>();
  for (const dir of charts) {
    const optionsFile = `${dir}/${UNIT_OPTIONS_FILE}`;
    const bytes = optionBlobs.get(files.get(optionsFile)!.oid);
    if (!bytes) continue;
    const doc = parseDocuments(optionsFile, bytes).documents[0];
    const written = doc ? parseUnitOptions('helm', optionsFile, [doc]).options : undefined;
    const list = written?.tool === 'helm' ? (written.helm.valueFiles ?? []) : [];
    if (written?.tool === 'helm' && written.helm.ignoreMissingValueFiles) ignoreMissing.add(dir);
    named.set(
      dir,
      list.map((path, i) => ({ path, ...doc!.locate(['spec', 'valueFiles', i]) })),
    );
  }
  // The files to look into: links (for their target), and files outside their chart (for objects they hold); a
  // pattern's, those it matches.
  const paths = [...files.keys()];
  const looked = new Set<string>();
  for (const [dir, refs] of named)
    for (const ref of refs) {
      const resolved = resolveValueFile(dir, ref.path);
      if (resolved === undefined) continue;
      for (const p of isValueFileGlob(resolved) ? matchValueFileGlob(resolved, paths) : [resolved]) {
        const f = files.get(p);
        if (f && (f.mode === '120000' || !p.startsWith(`${dir}/`))) looked.add(f.oid);
      }
    }
  const { blobs } = await readBlobsWithin(repo, [...looked], UNIT_READ_LIMITS.maxFileBytes);
  const decoder = new TextDecoder();
  const at = (p: string): CommitEntry => {
    const f = files.get(p);
    if (!f) return undefined;
    const bytes = blobs.get(f.oid);
    if (f.mode === '120000') return { type: 'symlink', target: bytes ? decoder.decode(bytes) : '?' };
    if (!bytes) return { type: 'file' };
    const kinds = parseDocuments(p, bytes)
      .documents.map((d) => d.value as { apiVersion?: unknown; kind?: unknown } | null)
      .filter((v) => v && typeof v === 'object' && typeof v.apiVersion === 'string' && typeof v.kind === 'string')
      .map((v) => String(v!.kind));
    return { type: 'file', kinds: [...new Set(kinds)] };
  };
  for (const [dir, refs] of named)
    out.set(dir, valueFileInputs(dir, `${dir}/${UNIT_OPTIONS_FILE}`, refs, at, ignoreMissing.has(dir), paths));
  return out;
}

/**
 * Whether a change can make other folders units or change what they read: a chart, kustomization or options file,
 * the ignore rules, a value file a chart names outside its folder, or, while some unit names a path the commit lacks,
 * any file added or removed.
 */
function changesLayout(layout: UnitLayout, changes: readonly TreeChange[]): boolean {
  const waiting = layout.units.some((u) => u.problems.length > 0);
  return changes.some(
    (c) =>
      namesUnitInputs(c.path) ||
      layout.watchedFiles?.includes(c.path) ||
      (waiting && (!c.oldOid || !c.newOid)) ||
      matchesWatchedGlob(layout, c),
  );
}

/** A file added or removed that a value file pattern reaching outside its chart matches: what the chart reads changes. */
function matchesWatchedGlob(layout: UnitLayout, c: TreeChange): boolean {
  return (!c.oldOid || !c.newOid) && (layout.watchedGlobs ?? []).some((g) => mayMatchValueFileGlob(g, c.path));
}

/**
 * Whether a file decides which folders are units or what they read: a chart or kustomization file, the ignore rules,
 * a unit's options (a chart's value files).
 */
function namesUnitInputs(path: string): boolean {
  const name = baseName(path);
  return markerTool(name) !== undefined || path === IGNORE_FILE || name === UNIT_OPTIONS_FILE || name === CHART_LOCK;
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
