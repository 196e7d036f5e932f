// Flotilla benchmarks: generate a fleet into a real Git repo, then measure the cold render, native
// fast-import writing the same tree, incremental syncs, a no-op sync, scheduler throughput, the same output built
// with one kustomize overlay per cluster (S and M), and push→applied plus a no-op resync against local members, in one run.
//   npm run bench -- [--size S|M|L|XL] [--no-units] [--no-dashboard] [--json FILE] [--seed TEXT] [--cpu-prof DIR] [--keep] [--pushes 50]
// At XL the renders raise the per-commit limits (--max-source-files, --max-output-bytes) the fleet outgrows.
// Progress goes to stderr, the table to stdout, and --json FILE gets one object with every figure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { parserCodeDigest } from '../../src/outputs/parserCode.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import type { RenderLimits } from '../../src/outputs/sourceLimits.ts';
import { FLEET_SIZES, generateFleet, type FileEdit, type FleetSize } from './generateFleet.ts';
import {
  buildImportStream,
  countCommits,
  countTreeFiles,
  exportCommitStream,
  git,
  importCommit,
  initBareRepo,
  readTreeFiles,
  runFastImport,
} from './gitTools.ts';
import { measureDashboard } from './dashboardFleet.ts';
import { measureKustomize, type KustomizeFigures } from './kustomizeOverlays.ts';
import { measurePushToApplied } from './pushToApplied.ts';
import { measureHugeDivision, measureSchedule, requestsFromBindings } from './scheduleThroughput.ts';
import { formatSummary, summarizeProfile, type CpuProfile } from './summarizeProfile.ts';
import {
  type ClusterStateStep,
  clusterStateFigures,
  formatTable,
  judge,
  perFileFigures,
  steadyFigures,
  type Figures,
} from './figures.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Set by scripts/bench/shippedCode.mjs (npm run bench): the product's modules are the built ones.
const SHIPPED_CODE = process.env.FLOTILLA_BENCH_DIST_BUILT === '1';
const SOURCE_REF = 'refs/heads/main';
const OUTPUT_REF = 'refs/heads/flotilla/rendered';
const STATUS_REF = 'refs/heads/flotilla/status';
const EPOCH = 1_700_000_000;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    size: { type: 'string', default: 'S' },
    json: { type: 'string' },
    seed: { type: 'string', default: 'flotilla-bench' },
    'cpu-prof': { type: 'string' },
    keep: { type: 'boolean', default: false },
    pushes: { type: 'string', default: '50' },
    // Without units the fleet is the one the tree ids before the sources work were measured on.
    'no-units': { type: 'boolean', default: false },
    // The dashboard step needs chromium, which does not start under a tight `ulimit -v`.
    'no-dashboard': { type: 'boolean', default: false },
  },
});
const size = (values.size ?? 'S').toUpperCase() as FleetSize;
if (!(size in FLEET_SIZES)) {
  process.stderr.write(`--size ${values.size}: use S, M, L or XL\n`);
  process.exit(2);
}
// XL has more source files than one render reads by default, and renders to some GB: raised as an operator would.
const limits: RenderLimits = size === 'XL' ? { maxSourceFiles: 200_000, maxOutputBytes: 64 * 1024 ** 3 } : {};
const profileDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

const benchStarted = performance.now();
const progress = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - benchStarted) / 1000).toFixed(1).padStart(6)}s] ${line}\n`);
const work = mkdtempSync(path.join(os.tmpdir(), `flotilla-bench-${size}-`));
const repoDir = path.join(work, 'source.git');
const scratch = path.join(work, 'stream.fi');

try {
  // 1. Setup (not measured): the fleet, written as one commit with native fast-import.
  let t = performance.now();
  const fleet = generateFleet(size, values.seed, !values['no-units']);
  const c = fleet.counts;
  progress(
    `generated ${fleet.files.size} files: ${c.templates} templates in ${c.namespaces} namespaces, ${c.clusters} clusters, ` +
      `${c.propagationPolicies} PropagationPolicies, ${c.overridePolicies} OverridePolicies, ${c.units} Helm/Kustomize units (${seconds(t)} s)`,
  );
  initBareRepo(repoDir);
  const statusFile = path.join(work, 'cluster-status.yaml');
  writeFileSync(statusFile, fleet.clusterStatus);
  t = performance.now();
  const sourceHead = await importCommit(
    repoDir,
    { ref: SOURCE_REF, message: `fleet ${size}\n`, time: EPOCH, files: fleet.files },
    scratch,
  );
  progress(
    `source repo ${repoDir} at ${sourceHead.slice(0, 12)} (fast-import ${seconds(t)} s); cluster status stream ${statusFile}`,
  );

  // 2. Cold render in a child process: its wall time, in-process time and peak RSS.
  progress('cold render (child process)…');
  const cold = await runRenderChild(repoDir, profileDir, limits);
  // A file the render refused renders nothing (a chart without helm, a kustomization without kustomize): every figure
  // after it would measure a smaller fleet than this one, beside figures of runs that rendered it whole.
  if (cold.report.errors > 0)
    throw new Error(
      `the cold render reported ${cold.report.errors} errors, so no figure of this run would be the fleet's; ` +
        `the first ones:\n${cold.report.firstProblems.join('\n')}`,
    );
  const coldCommit = cold.report.outputCommit;
  if (!coldCommit) throw new Error('the cold render made no output commit');
  progress(
    `cold render: ${cold.report.seconds.toFixed(2)} s in process (${cold.report.cpuSeconds.toFixed(2)} s CPU), ${cold.wall.toFixed(2)} s wall, peak RSS ${cold.peakRssMb.toFixed(0)} MB ` +
      `(${cold.rssSource}), ${cold.report.filesWritten} files written, ${cold.report.warnings} warnings, ` +
      `event loop held ${cold.report.longestStallMs.toFixed(0)} ms at most`,
  );

  // 3. Incremental syncs, right after the cold render (before the steps below fill this process's heap): one source
  //    commit each, then syncRepo in this process on a freshly opened repo.
  const syncs: Record<string, SyncFigure> = {};
  let time = EPOCH;
  // Each bench edit: a commit on main, a minute after the one before, changing one file.
  const commitOneFile = (message: string, file: string, text: string) =>
    importCommit(
      repoDir,
      { ref: SOURCE_REF, from: `${SOURCE_REF}^0`, message: `${message}\n`, time: (time += 60), files: [[file, text]] },
      scratch,
    );
  // What the package runs has this digest of its parsing code fixed at build time (scripts/build.js); run from src/,
  // as here, it reads and hashes those sources at first use: done now, so no sync below counts it.
  parserCodeDigest();
  const edits: [string, FileEdit][] = [
    ['template', fleet.edits.template],
    ['policy', fleet.edits.policy],
    ['cluster', fleet.edits.cluster],
    ['override', fleet.edits.override],
    // A fleet without units (--no-units) has no chart to change.
    ...(fleet.counts.units > 0 ? [['unit', fleet.edits.unit] as [string, FileEdit]] : []),
  ];
  for (const [name, edit] of edits) {
    await commitOneFile(`bench: ${edit.what}`, edit.path, edit.text);
    syncs[name] = await timedSync(
      await openRepo(repoDir),
      profileDir ? path.join(profileDir, `sync-${name}.cpuprofile`) : undefined,
    );
    progress(
      `sync after one ${name} change (${edit.what}): ${syncs[name]!.seconds.toFixed(3)} s (${syncs[name]!.cpuSeconds.toFixed(3)} s CPU), ${syncs[name]!.summary}; ` +
        `${((1000 * syncs[name]!.seconds) / Math.max(1, syncs[name]!.filesWritten)).toFixed(3)} ms per file written (cold render: ${((1000 * cold.report.seconds) / cold.report.filesWritten).toFixed(3)})`,
    );
  }
  // A reconciler's steady state: one repository object kept open (as `flotilla run` keeps it) that has just synced a
  // template change, then the next one. The figures above are each a fresh repository's, and the first of them also
  // this process's first sync, which compiles the code it runs.
  const warmRepo = await openRepo(repoDir);
  let warm: SyncFigure | undefined;
  for (const tag of ['v2.0.1-bench', 'v2.0.2-bench']) {
    const again = { ...fleet.edits.template, text: fleet.edits.template.text.replace('v2.0.0-bench', tag) };
    await commitOneFile(`bench: image tag ${tag}`, again.path, again.text);
    warm = await timedSync(warmRepo, undefined);
  }
  progress(
    `sync after one template change, repo open and just synced a template change: ${warm!.seconds.toFixed(3)} s, ${warm!.summary}`,
  );
  // The same open repository then takes the other edits back, in turn: those syncs as a reconciler makes them.
  const steady = {} as Record<'policy' | 'cluster' | 'override', SyncFigure>;
  for (const name of ['policy', 'cluster', 'override'] as const) {
    const edit = fleet.edits[name];
    const before = fleet.files.get(edit.path);
    if (before === undefined) throw new Error(`the fleet has no ${edit.path} to take the ${name} edit back to`);
    await commitOneFile(`bench: ${edit.what}, taken back`, edit.path, before);
    steady[name] = await timedSync(warmRepo, undefined);
    progress(
      `sync after the ${name} change taken back, same open repo: ${steady[name].seconds.toFixed(3)} s, ${steady[name].summary}`,
    );
  }

  // 4. No-op: nothing new on main, so sync must not commit.
  const before = countCommits(repoDir, OUTPUT_REF);
  const noop = await timedSync(await openRepo(repoDir), undefined);
  const noopCommits = countCommits(repoDir, OUTPUT_REF) - before;
  progress(`no-op sync: ${noop.seconds.toFixed(3)} s, ${noopCommits} new commits on flotilla/rendered`);

  // 4b. A cluster's state moving on the status branch, as the status side writes it: NotReady (Karmada's cluster
  //     controller taints it not-ready:NoSchedule) and Ready again before anything was evicted (a short outage),
  //     then NotReady with a ClusterTaintPolicy's not-ready:NoExecute evicting what runs there, then Ready again.
  //     Each a sync of its own on a freshly opened repository.
  // The first clusters', the one holding most manifests: a cluster's failure is felt where things run.
  // A cluster with nothing on it has no folder: 0 lines (the listing's error goes to the shell's stderr).
  const manifestsOn = (name: string) => countTreeFiles(repoDir, `${OUTPUT_REF}:clusters/${name}`);
  const stateCluster = fleet.clusters
    .slice(0, 5)
    .map((c) => ({ name: c.metadata.name, manifests: manifestsOn(c.metadata.name) }))
    .reduce((a, b) => (b.manifests > a.manifests ? b : a)).name;
  const stateSyncs = {} as Record<ClusterStateStep, SyncFigure>;
  const states: [ClusterStateStep, string, Record<string, string>[]][] = [
    ['not_ready', 'NotReady', [{ effect: 'NoSchedule' }]],
    ['recovered', 'Ready again, nothing evicted', []],
    ['no_execute', 'NotReady and tainted NoExecute', [{ effect: 'NoSchedule' }, { effect: 'NoExecute' }]],
    ['ready_again', 'Ready again', []],
  ];
  for (const [name, what, taints] of states) {
    await importCommit(
      repoDir,
      {
        ref: STATUS_REF,
        ...(name === 'not_ready' ? {} : { from: `${STATUS_REF}^0` }),
        message: `bench: ${stateCluster} ${what}\n`,
        time: (time += 60),
        files: [[`clusters/${stateCluster}.yaml`, clusterStatusFile(stateCluster, taints, new Date(time * 1000))]],
      },
      scratch,
    );
    stateSyncs[name] = await timedSync(await openRepo(repoDir), undefined);
    progress(
      `sync after ${stateCluster} ${what} (status branch): ${stateSyncs[name].seconds.toFixed(3)} s, ${stateSyncs[name].summary}`,
    );
  }
  // 4c. The eviction's graceful tasks run out (Karmada's default grace period, 600 s, after the NoExecute sync made
  //     them): nothing moved on main or the status branch, and the next sync ends them, each template's evicted copy
  //     taken off the cluster or the cluster placed again.
  stateSyncs.grace_ended = await timedSync(await openRepo(repoDir), undefined, new Date(Date.now() + 601_000));
  progress(
    `sync after the eviction's grace period ran out: ${stateSyncs.grace_ended.seconds.toFixed(3)} s, ${stateSyncs.grace_ended.summary}`,
  );
  // Every sync so far ran in this process, beside the generator's copy of the source: what they held at most.
  const syncsPeakRssMb = process.resourceUsage().maxRSS / 1024;

  // 5. The yardstick: native fast-import writing the cold render's output tree into a fresh repo.
  //    At XL the output (some GB) is not read into this process: git fast-export writes the stream to the file.
  t = performance.now();
  const huge = size === 'XL';
  const rendered = huge ? undefined : readTreeFiles(repoDir, coldCommit);
  const renderedFiles = rendered?.size ?? countTreeFiles(repoDir, coldCommit);
  const renderedTree = git(repoDir, ['rev-parse', `${coldCommit}^{tree}`]);
  const yardDir = path.join(work, 'fast-import.git');
  initBareRepo(yardDir);
  let importedRef = SOURCE_REF;
  if (rendered)
    writeFileSync(
      scratch,
      buildImportStream({ ref: SOURCE_REF, message: 'same tree\n', time: EPOCH, files: rendered }),
    );
  else importedRef = exportCommitStream(repoDir, coldCommit, scratch);
  progress(
    `read ${renderedFiles} rendered files back with git ${rendered ? 'cat-file' : 'fast-export'} (${seconds(t)} s); running fast-import on them…`,
  );
  const fastImportS = await runFastImport(yardDir, scratch);
  const sameTree = git(yardDir, ['rev-parse', `${importedRef}^{tree}`]) === renderedTree;
  progress(
    `fast-import: ${fastImportS.toFixed(2)} s; tree ${sameTree ? 'identical to' : 'DIFFERENT from'} the rendered tree ${renderedTree.slice(0, 12)}`,
  );

  // 6. Scheduler throughput over the fleet's bindings, clusters with capacity.
  const requests = requestsFromBindings(
    rendered ??
      new Map([...readTreeFiles(repoDir, `${coldCommit}:bindings`)].map(([p, bytes]) => [`bindings/${p}`, bytes])),
  );
  progress(`schedule() over ${requests.length} bindings × ${fleet.clusters.length} clusters for 2 s…`);
  const sched = measureSchedule(requests, fleet.clusters);
  const hugeDivisionMs = measureHugeDivision(fleet.clusters);
  progress(
    `schedule: ${sched.perSecond.toFixed(0)} bindings/s, ${sched.perCpuSecond.toFixed(0)} per CPU second (${sched.calls} calls; ${Object.entries(
      sched.statuses,
    )
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')})`,
  );
  progress(
    `schedule: 2147483647 replicas divided over ${fleet.clusters.length} clusters in ${hugeDivisionMs.toFixed(1)} ms`,
  );

  // 6b. The dashboard's fleet view over this repo (no status branch: the bench renders with a cluster-status file).
  const dash = values['no-dashboard'] ? undefined : await dashboardFigures(repoDir);
  if (!dash) progress('dashboard: skipped (--no-dashboard)');
  else
    progress(
      `dashboard: fleet API ${dash.fleetApiMs.toFixed(0)} ms a page (${dash.fleetApiColdMs.toFixed(0)} ms the first answer after start), ${dash.workloads} workloads; ` +
        `${dash.interactiveMs === null ? 'no browser here' : `page interactive in ${dash.interactiveMs.toFixed(0)} ms`}; ` +
        `object ${dash.objectApiMs.toFixed(0)} ms, explain ${dash.explainApiMs.toFixed(0)} ms, changes ${dash.changesApiMs.toFixed(0)} ms ` +
        `(${dash.changesApiFirstMs.toFixed(0)} ms the first), attention ${dash.attentionApiMs.toFixed(0)} ms`,
    );

  // 7. The kustomize way: one overlay per cluster, built in turn (S and M; at L it would dominate the run).
  let kustomize: KustomizeFigures | undefined;
  if (size === 'L' || !rendered) progress(`kustomize overlays: skipped at ${size}`);
  else {
    progress(`kustomize: one overlay per cluster from the rendered output, built with kubectl kustomize in turn…`);
    kustomize = await measureKustomize(path.join(work, 'kustomize'), fleet.files, rendered);
    progress(
      `kustomize: ${kustomize.clusters} overlays, ${kustomize.objects} objects, ${kustomize.patches} patches, ${kustomize.seconds.toFixed(2)} s ` +
        `(${(kustomize.seconds / cold.report.seconds).toFixed(1)}× the cold render)` +
        `${kustomize.mismatched.length ? `; MISMATCH with the render on ${kustomize.mismatched.join(', ')}` : '; object counts match the render on every cluster'}`,
    );
  }

  // 8. push → applied: members and the reconciler in process, real git pushes into a watched bare repo.
  progress(`push → applied: ${values.pushes} pushes changing replicas, then 200 ConfigMaps × 2 members…`);
  const pushed = await measurePushToApplied({ pushes: Number(values.pushes), applyObjects: 200, progress });

  const figures: Figures = {
    render_cold_s: cold.report.seconds,
    render_cold_wall_s: cold.wall,
    render_cold_cpu_s: cold.report.cpuSeconds,
    peak_rss_mb: cold.peakRssMb,
    render_cold_longest_stall_ms: cold.report.longestStallMs,
    fast_import_s: fastImportS,
    render_vs_fast_import: cold.report.seconds / fastImportS,
    sync_one_template_s: syncs.template!.seconds,
    sync_one_policy_s: syncs.policy!.seconds,
    sync_one_cluster_s: syncs.cluster!.seconds,
    sync_one_override_s: syncs.override!.seconds,
    sync_one_unit_s: syncs.unit?.seconds ?? null,
    ...steadyFigures(cold.report, { template: warm!, ...steady }),
    sync_one_template_cpu_s: syncs.template!.cpuSeconds,
    sync_vs_cold: cold.report.seconds / syncs.template!.seconds,
    ...perFileFigures(
      { seconds: cold.report.seconds, cpuSeconds: cold.report.cpuSeconds, filesWritten: cold.report.filesWritten },
      {
        template: syncs.template!,
        policy: syncs.policy!,
        cluster: syncs.cluster!,
        override: syncs.override!,
        ...(syncs.unit ? { unit: syncs.unit } : {}),
      },
    ),
    noop_commits: noopCommits,
    noop_sync_s: noop.seconds,
    ...clusterStateFigures(cold.report, stateSyncs),
    syncs_peak_rss_mb: syncsPeakRssMb,
    schedule_bindings_per_s: sched.perSecond,
    schedule_bindings_per_cpu_s: sched.perCpuSecond,
    schedule_huge_replicas_ms: hugeDivisionMs,
    push_to_applied_p50_ms: pushed.push_to_applied_p50_ms,
    push_to_applied_p95_ms: pushed.push_to_applied_p95_ms,
    apply_objects_per_s: pushed.apply_objects_per_s,
    noop_member_writes: pushed.noop_member_writes,
    noop_pass_commits: pushed.noop_pass_commits,
    dashboard_fleet_api_ms: dash?.fleetApiMs ?? null,
    dashboard_fleet_api_cold_ms: dash?.fleetApiColdMs ?? null,
    dashboard_interactive_ms: dash?.interactiveMs ?? null,
    dashboard_object_api_ms: dash?.objectApiMs ?? null,
    dashboard_explain_api_ms: dash?.explainApiMs ?? null,
    dashboard_changes_api_first_ms: dash?.changesApiFirstMs ?? null,
    dashboard_changes_api_ms: dash?.changesApiMs ?? null,
    dashboard_attention_api_ms: dash?.attentionApiMs ?? null,
    kustomize_s: kustomize?.seconds ?? null,
    kustomize_vs_render: kustomize ? kustomize.seconds / cold.report.seconds : null,
  };
  const result = {
    size,
    seed: values.seed,
    ...FLEET_SIZES[size],
    counts: fleet.counts,
    source_files: fleet.files.size,
    rendered_files: renderedFiles,
    rendered_tree_matches_fast_import: sameTree,
    render_errors: cold.report.errors,
    render_warnings: cold.report.warnings,
    peak_rss_source: cold.rssSource,
    schedule: { bindings: sched.bindings, statuses: sched.statuses },
    push_to_applied: pushed,
    kustomize: kustomize ?? `not measured at ${size}`,
    syncs: Object.fromEntries(
      Object.entries(syncs).map(([k, v]) => [
        k,
        {
          seconds: v.seconds,
          cpu_seconds: v.cpuSeconds,
          files_written: v.filesWritten,
          seconds_per_file: v.seconds / Math.max(1, v.filesWritten),
          summary: v.summary,
        },
      ]),
    ),
    figures,
    targets: judge(size, figures),
    node: process.version,
    git: git(repoDir, ['version']).replace('git version ', ''),
    cpus: os.cpus().length,
  };
  process.stdout.write(formatTable(size, figures));
  if (values.json) {
    writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
    progress(`wrote ${values.json}`);
  }
  if (profileDir) reportProfiles(profileDir);
} finally {
  if (values.keep) progress(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

interface SyncFigure {
  seconds: number;
  cpuSeconds: number;
  filesWritten: number;
  summary: string;
}

/** A cluster's file on the status branch: Ready, or NotReady with the not-ready taints of the given effects. */
function clusterStatusFile(name: string, taints: Record<string, string>[], at: Date): string {
  const since = at.toISOString().replace(/\.\d+Z$/, 'Z');
  const ready = taints.length === 0;
  const spec = ready
    ? ''
    : `spec:\n  taints:\n${taints.map((t) => `    - {key: cluster.karmada.io/not-ready, effect: ${t.effect}, timeAdded: "${since}"}\n`).join('')}`;
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n${spec}status:\n  conditions:\n    - {type: Ready, status: "${ready ? 'True' : 'False'}", reason: ${ready ? 'ClusterReady' : 'ClusterNotReachable'}, lastTransitionTime: "${since}"}\n`;
}

async function timedSync(repo: GitRepo, profileFile: string | undefined, at?: Date): Promise<SyncFigure> {
  const session = profileFile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  }
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const result = await syncRepo(repo, {
    sourceRef: SOURCE_REF,
    outputRef: OUTPUT_REF,
    limits,
    ...(at ? { now: () => at } : {}),
  });
  const secs = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  if (session && profileFile) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  const files = result.reports.reduce((s, r) => s + r.filesWritten, 0);
  const clusters = new Set(result.reports.flatMap((r) => Object.keys(r.changes)));
  const errors = result.reports.reduce((s, r) => s + r.problems.filter((p) => p.severity === 'error').length, 0);
  const summary =
    `${result.reports.length} commit(s) rendered, ${files} files written on ${clusters.size} clusters${errors ? `, ${errors} errors` : ''}` +
    `${result.reports.some((r) => r.full) ? ' (full re-render)' : ''}`;
  return { seconds: secs, cpuSeconds: (cpu.user + cpu.system) / 1e6, filesWritten: files, summary };
}

interface ChildReport {
  seconds: number;
  cpuSeconds: number;
  maxRssKb: number;
  longestStallMs: number;
  outputCommit: string | null;
  filesWritten: number;
  errors: number;
  warnings: number;
  firstProblems: string[];
}

async function runRenderChild(
  repo: string,
  profiles: string | undefined,
  renderLimits: RenderLimits,
): Promise<{ report: ChildReport; wall: number; peakRssMb: number; rssSource: string }> {
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const nodeArgs = [
    ...(profiles ? ['--cpu-prof', '--cpu-prof-dir', profiles, '--cpu-prof-name', 'render-cold.cpuprofile'] : []),
    '--import',
    'tsx',
    // What this process runs: the built package (dist/), not src/ through tsx.
    ...(SHIPPED_CODE ? ['--import', path.join(ROOT, 'scripts/bench/shippedCode.mjs')] : []),
    path.join(ROOT, 'scripts/bench/renderChild.ts'),
    repo,
    JSON.stringify(renderLimits),
  ];
  const [cmd, args] = timeBin ? [timeBin, ['-v', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  const started = performance.now();
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>(
    (resolve, reject) => {
      // glibc gives each thread that allocates its own malloc arena, each reserving 64 MiB of address space at a time:
      // RSS is the same with two, and under the `ulimit -v` the XL run takes (of which tsx's loader reserves ~14 GB)
      // the reservations are what runs out. Unless the caller set it.
      const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
      const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ stdout: out, stderr: err, code: status }));
    },
  );
  const wall = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`cold render child exited ${code}:\n${stderr}`);
  const report = JSON.parse(stdout.trim().split('\n').pop()!) as ChildReport;
  const timed = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return timed
    ? { report, wall, peakRssMb: Number(timed[1]) / 1024, rssSource: '/usr/bin/time -v' }
    : { report, wall, peakRssMb: report.maxRssKb / 1024, rssSource: 'process.resourceUsage().maxRSS' };
}

function reportProfiles(dir: string): void {
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    process.stderr.write(`\n${formatSummary(file, summarizeProfile(profile), 12)}\n`);
  }
}

async function dashboardFigures(repoDir: string) {
  progress('dashboard: GET /ui/api/fleet, then the page in chromium-headless-shell…');
  return measureDashboard(repoDir);
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(2);
}
