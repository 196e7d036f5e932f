import type { UnitOrigin } from '../api/model.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { parseTrailers, RENDER_TOOLS_TRAILER } from '../branches/rendered/trailers.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { markerTool } from '../units/detectUnits.ts';
import { describeUnit } from '../units/describeUnit.ts';
import { describeOptions } from '../units/renderUnit.ts';
import { parseUnitOptions, UNIT_OPTIONS_FILE } from '../units/unitOptions.ts';

/**
 * The Helm or Kustomize unit an output commit's template came from, described as plan and explain do: the index
 * names its source file (the unit's marker), the source commit holds its options (release, value files), the
 * commit's Render-Tools trailer the tools. Undefined for a template read from a plain file.
 */
export async function readTemplateUnit(
  repo: GitRepo,
  outputCommit: string,
  match: (key: string) => boolean,
  /** For a template scoped units output: the cluster whose variant's unit to name; without it, each with its clusters. */
  cluster?: string,
): Promise<string | undefined> {
  const output = await readCommitInfo(repo, outputCommit);
  const index = await openOutputIndex(repo, output.tree);
  if (!index) return undefined;
  await index.loadAll();
  const entry = index.templates().find(([key]) => match(key))?.[1];
  if (!entry?.units) return describeMarker(repo, output, entry?.file);
  const units = cluster === undefined ? entry.units : entry.units.filter((u) => u.clusters.includes(cluster));
  const described = await Promise.all(
    units.map(async (u) => {
      const unit = await describeMarker(repo, output, u.file);
      return unit && cluster === undefined ? `${unit} on ${u.clusters.join(', ') || 'no cluster'}` : unit;
    }),
  );
  return described.filter((d) => d !== undefined).join('; ') || undefined;
}

/** The unit whose marker file this is, described as plan and explain do. */
async function describeMarker(
  repo: GitRepo,
  output: { message: string },
  file: string | undefined,
): Promise<string | undefined> {
  const tool = file ? markerTool(file.slice(file.lastIndexOf('/') + 1)) : undefined;
  const trailers = parseTrailers(output.message);
  const source = trailers['Source-Commit'];
  if (!file || !tool || !source) return undefined;
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
