// Top self-time functions and files of a V8 .cpuprofile (from `node --cpu-prof` or node:inspector).
//   node --import tsx scripts/bench/summarizeProfile.ts FILE.cpuprofile [TOP]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  share: number;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `src/x.ts`, `node_modules/<package>`, `node:internal`, or `(program)`-style V8 buckets. */
function fileOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const p = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = p.slice(nm + 'node_modules/'.length).split('/');
    return `node_modules/${parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  if (p.startsWith('node:')) return p;
  const file = path.relative(ROOT, p);
  // The bench runs the built package: dist/x.js is charged to the src/x.ts it is built from.
  return file.startsWith('dist/') && file.endsWith('.js')
    ? `src/${file.slice('dist/'.length, -'.js'.length)}.ts`
    : file;
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time per function. */
  functions: SelfTime[];
  /** Self time per file (src/… or a node_modules package). */
  files: SelfTime[];
  /**
   * Every sample charged to the innermost src/ function on its stack, so time spent inside yaml, pako,
   * isomorphic-git or fs lands on the src/ function that asked for it. Samples with no src/ frame
   * (start-up, idle, GC) are left out.
   */
  srcCallers: SelfTime[];
}

export function summarizeProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const srcFrame = new Map<number, string | null>();
  const srcOf = (id: number): string | null => {
    const known = srcFrame.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const f = fileOf(node.callFrame.url, node.callFrame.functionName);
    const up = parent.get(id);
    const found = f.startsWith('src/')
      ? `${node.callFrame.functionName || '(anonymous)'}  ${f}`
      : up === undefined
        ? null
        : srcOf(up);
    srcFrame.set(id, found);
    return found;
  };
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  const callers = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    total += ms;
    const f = fileOf(node.callFrame.url, node.callFrame.functionName);
    const name = `${node.callFrame.functionName || '(anonymous)'}  ${f}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + ms);
    file.set(f, (file.get(f) ?? 0) + ms);
    const caller = srcOf(id);
    if (caller) callers.set(caller, (callers.get(caller) ?? 0) + ms);
  });
  const ranked = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, ms, share: total > 0 ? ms / total : 0 }));
  return { totalMs: total, functions: ranked(fn), files: ranked(file), srcCallers: ranked(callers) };
}

export function formatSummary(title: string, s: ProfileSummary, top = 15): string {
  const row = (e: SelfTime) =>
    `  ${e.ms.toFixed(0).padStart(7)} ms ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.name}`;
  return [
    `${title}: ${(s.totalMs / 1000).toFixed(2)} s sampled`,
    ' top self time by file:',
    ...s.files.slice(0, top).map(row),
    ' top self time by function:',
    ...s.functions.slice(0, top).map(row),
    ' time charged to the innermost src/ function (its own time plus the libraries and I/O it called):',
    ...s.srcCallers.slice(0, top).map(row),
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: summarizeProfile.ts FILE.cpuprofile [TOP]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  process.stdout.write(`${formatSummary(path.basename(file), summarizeProfile(profile), Number(top ?? 15))}\n`);
}
