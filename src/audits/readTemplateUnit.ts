import type { UnitOrigin } from '../api/model.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { parseTrailers, RENDER_TOOLS_TRAILER } from '../branches/rendered/trailers.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { markerTool } from '../units/detectUnits.ts';
import { describeUnit } from '../units/describeUnit.ts';
import { describeHook } from '../units/syncHooks.ts';
import { parseRefKey } from '../api/kinds.ts';
import { manifestPath } from '../branches/rendered/outputPaths.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { describeOptions } from '../units/renderUnit.ts';
import { parseUnitOptions, UNIT_OPTIONS_FILE } from '../units/unitOptions.ts';

/** Where an output commit's template came from, as plan and explain name it. */
export interface TemplateSource {
  /** The source file the index names (a unit's marker file). */
  file: string;
  /** The Helm or Kustomize unit that output it (describeUnit); absent for a plain file's template. */
  unit?: string;
  /** What Flotilla does with it when it is a hook (describeHook), read from its rendered manifest. */
  hook?: string;
}

/**
 * The Helm or Kustomize unit an output commit's template came from, described as plan and explain do: the index
 * names its source file (the unit's marker), the source commit holds its options (release, value files), the
 * commit's Render-Tools trailer the tools; and, when it is a hook, what Flotilla does with it (its rendered manifest
 * keeps its hook annotations). Undefined when the index names no such template.
 */
export async function readTemplateSource(
  repo: GitRepo,
  outputCommit: string,
  match: (key: string) => boolean,
  /** For a template scoped units output: the cluster whose variant's unit to name; without it, each with its clusters. */
  cluster?: string,
): Promise<TemplateSource | undefined> {
  const output = await readCommitInfo(repo, outputCommit);
  const index = await openOutputIndex(repo, output.tree);
  if (!index) return undefined;
  await index.loadAll();
  const found = index.templates().find(([key]) => match(key));
  if (!found) return undefined;
  const [key, entry] = found;
  const shownCluster = cluster ?? entry.clusters[0];
  const hook = shownCluster === undefined ? undefined : await renderedHook(repo, output.tree, shownCluster, key);
  const unit = await describeUnits(repo, output.message, entry, cluster);
  return { file: entry.file, ...(unit ? { unit } : {}), ...(hook ? { hook } : {}) };
}

/** The unit of readTemplateSource with its hook note, as plan and explain show it; undefined for a plain file's template. */
export async function readTemplateUnit(
  repo: GitRepo,
  outputCommit: string,
  match: (key: string) => boolean,
  cluster?: string,
): Promise<string | undefined> {
  const source = await readTemplateSource(repo, outputCommit, match, cluster);
  return source?.unit && `${source.unit}${source.hook ? `; ${source.hook}` : ''}`;
}

/** The unit of an index entry; for one scoped units output, the cluster's unit, or each unit with its clusters. */
async function describeUnits(
  repo: GitRepo,
  message: string,
  entry: IndexEntry,
  cluster: string | undefined,
): Promise<string | undefined> {
  if (!entry.units) return describeUnitAt(repo, message, entry.file);
  const units = cluster === undefined ? entry.units : entry.units.filter((u) => u.clusters.includes(cluster));
  const described = await Promise.all(
    units.map(async (u) => {
      const unit = await describeUnitAt(repo, message, u.file);
      return unit && cluster === undefined ? `${unit} on ${u.clusters.join(', ') || 'no cluster'}` : unit;
    }),
  );
  return described.filter((d) => d !== undefined).join('; ') || undefined;
}

async function renderedHook(repo: GitRepo, tree: string, cluster: string, key: string): Promise<string | undefined> {
  const path = manifestPath(cluster, parseRefKey(key));
  const text = (await readTextFiles(repo, tree, [path])).get(path);
  const manifest = text === undefined ? undefined : parseYamlValue(text);
  return manifest && typeof manifest === 'object' ? describeHook(manifest as Record<string, unknown>) : undefined;
}

async function describeUnitAt(repo: GitRepo, message: string, file: string): Promise<string | undefined> {
  const tool = markerTool(file.slice(file.lastIndexOf('/') + 1));
  const trailers = parseTrailers(message);
  const source = trailers['Source-Commit'];
  if (!tool || !source) return undefined;
  const dir = file.slice(0, file.lastIndexOf('/'));
  const optionsFile = `${dir}/${UNIT_OPTIONS_FILE}`;
  let extra: Partial<UnitOrigin> = {};
  try {
    const text = (await readTextFiles(repo, (await readCommitInfo(repo, source)).tree, [optionsFile])).get(optionsFile);
    const documents = text === undefined ? [] : parseDocuments(optionsFile, new TextEncoder().encode(text)).documents;
    extra = describeOptions(
      { dir },
      parseUnitOptions(tool, optionsFile, documents).options,
      text === undefined ? undefined : optionsFile,
    );
  } catch {
    // The source commit is gone (force-push and gc): the unit is still named by its folder.
  }
  const toolVersion = trailers[RENDER_TOOLS_TRAILER]?.split(', ').find((t) => t.startsWith(`${tool} `));
  return describeUnit({ dir, tool, marker: file, ...extra, ...(toolVersion ? { toolVersion } : {}) });
}
