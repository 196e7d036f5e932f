import { FLEET_SIZES, type FleetSize } from './generateFleet.ts';

// The figures one bench run produces, their targets, and the table printed at the end.

export interface Figures {
  render_cold_s: number;
  /** Including node + tsx start-up of the child process. */
  render_cold_wall_s: number;
  /** CPU time (user + system) of the cold render: on a shared machine it moves far less than wall time. */
  render_cold_cpu_s: number;
  peak_rss_mb: number;
  /**
   * The longest the cold render kept the event loop from a turn: in `flotilla run` a Lease renewal, a /healthz probe
   * or a member watch waits that long.
   */
  render_cold_longest_stall_ms: number;
  fast_import_s: number;
  render_vs_fast_import: number;
  sync_one_template_s: number;
  sync_one_policy_s: number;
  sync_one_cluster_s: number;
  /** One OverridePolicy's overriders changed (another registry and cost center for one Deployment). */
  sync_one_override_s: number;
  /**
   * One Helm chart's values changed: that unit runs again (helm template), the others come from their cache. Null
   * without units (--no-units), as are its per-file figures.
   */
  sync_one_unit_s: number | null;
  /** A template edit on a repository kept open that has just synced one: a reconciler's steady state. */
  sync_one_template_warm_s: number;
  /** On that open repository, the policy, cluster and OverridePolicy edits then taken back, in turn. */
  sync_one_policy_warm_s: number;
  sync_one_cluster_warm_s: number;
  sync_one_override_warm_s: number;
  /** CPU time (user + system) of the one-template sync. */
  sync_one_template_cpu_s: number;
  sync_vs_cold: number;
  /** Seconds per file written: the cold render's, and each sync's (its seconds over the files it wrote). */
  render_cold_s_per_file: number;
  sync_one_template_s_per_file: number;
  sync_one_policy_s_per_file: number;
  sync_one_cluster_s_per_file: number;
  sync_one_override_s_per_file: number;
  sync_one_unit_s_per_file: number | null;
  /**
   * Each sync against the budget for it, 60 ms + 2 × (files it writes) × (the cold render's seconds per
   * file): cost in proportion to the change. ≤ 1 passes.
   */
  sync_one_template_vs_budget: number;
  sync_one_policy_vs_budget: number;
  sync_one_cluster_vs_budget: number;
  sync_one_override_vs_budget: number;
  /** The unit sync runs helm template once (a process of its own, outside the CPU figure). */
  sync_one_unit_vs_budget: number | null;
  /** The steady syncs (`*_warm_s`) against the same budget: what a running reconciler pays. */
  sync_one_template_warm_vs_budget: number;
  sync_one_policy_warm_vs_budget: number;
  sync_one_cluster_warm_vs_budget: number;
  sync_one_override_warm_vs_budget: number;
  /** The same syncs in CPU seconds, and the CPU budget (the cold render's CPU seconds per file): steadier on a shared machine. */
  sync_one_policy_cpu_s: number;
  sync_one_cluster_cpu_s: number;
  sync_one_override_cpu_s: number;
  sync_one_unit_cpu_s: number | null;
  sync_one_template_vs_cpu_budget: number;
  sync_one_policy_vs_cpu_budget: number;
  sync_one_cluster_vs_cpu_budget: number;
  sync_one_override_vs_cpu_budget: number;
  sync_one_unit_vs_cpu_budget: number | null;
  noop_commits: number;
  noop_sync_s: number;
  /**
   * A cluster's state on the status branch, a sync each: NotReady (not-ready:NoSchedule, which moves nothing already
   * scheduled), then not-ready:NoExecute too (its workloads evicted), then Ready again; the files each writes, and the
   * NoExecute one against the budget.
   */
  sync_cluster_not_ready_s: number;
  sync_cluster_recovered_s: number;
  sync_cluster_no_execute_s: number;
  sync_cluster_no_execute_files: number;
  sync_cluster_no_execute_vs_budget: number;
  sync_cluster_ready_again_s: number;
  sync_cluster_ready_again_files: number;
  /** The next sync once the eviction's grace period ran out (nothing else moved): its tasks end. */
  sync_cluster_grace_ended_s: number;
  sync_cluster_grace_ended_files: number;
  sync_cluster_grace_ended_vs_budget: number;
  /**
   * The bench process's peak RSS once every sync above ran in it (the generator's copy of the source included): an
   * upper bound on what a leader's syncs hold at once.
   */
  syncs_peak_rss_mb: number;
  schedule_bindings_per_s: number;
  /** The same per second of CPU time: steadier than wall time on a shared machine. */
  schedule_bindings_per_cpu_s: number;
  /** One binding of 2147483647 replicas divided by static weights over every cluster (median of five). */
  schedule_huge_replicas_ms: number;
  /** `git push` into a watched bare repo → both members' Deployment has the new replicas (in-process reconciler). */
  push_to_applied_p50_ms: number;
  push_to_applied_p95_ms: number;
  /** Objects created on members per second (push of a commit adding them → last one landed). */
  apply_objects_per_s: number;
  /** Write requests (POST/PUT/PATCH/DELETE) counted at the members during a full pass with nothing changed. */
  noop_member_writes: number;
  /** Commits on flotilla/rendered and flotilla/status made by that pass. */
  noop_pass_commits: number;
  /** GET /ui/api/fleet, a page of 50 workloads, median of five, the heads read (as the server reads them ahead). */
  dashboard_fleet_api_ms: number | null;
  /** The first answer right after the server starts, waiting for that read (rendered index, clusters). */
  dashboard_fleet_api_cold_ms: number | null;
  /** chromium-headless-shell: open /ui/ → the first row of the workloads matrix shown; null without the browser. */
  dashboard_interactive_ms: number | null;
  /** GET /ui/api/object of one template (trace, per-cluster manifests, blame, history), the heads read. */
  dashboard_object_api_ms: number | null;
  /** GET /ui/api/explain of that template: its placement, scheduled alone from the rendered index. */
  dashboard_explain_api_ms: number | null;
  /** GET /ui/api/changes?limit=30, the first answer after start (every commit diffed) and the next (kept by oid). */
  dashboard_changes_api_first_ms: number | null;
  dashboard_changes_api_ms: number | null;
  /** GET /ui/api/attention. */
  dashboard_attention_api_ms: number | null;
  /** One kustomize overlay per cluster, built in turn with `kubectl kustomize`; null where not measured (L). */
  kustomize_s: number | null;
  /** kustomize_s / render_cold_s. */
  kustomize_vs_render: number | null;
}

/** Why a figure is null: printed in its place. */
export const NOT_MEASURED: Partial<Record<keyof Figures, string>> = {
  kustomize_s: 'measured at S and M only: 100 overlays of 10,000 templates take too long at L (and XL)',
  kustomize_vs_render: 'measured at S and M only',
  dashboard_interactive_ms:
    'no /usr/bin/chromium-headless-shell on this machine (apt install chromium-headless-shell), or --no-dashboard',
  ...Object.fromEntries(
    (
      [
        'dashboard_fleet_api_ms',
        'dashboard_fleet_api_cold_ms',
        'dashboard_object_api_ms',
        'dashboard_explain_api_ms',
        'dashboard_changes_api_first_ms',
        'dashboard_changes_api_ms',
        'dashboard_attention_api_ms',
      ] as const
    ).map((k) => [k, 'skipped (--no-dashboard)']),
  ),
  sync_one_unit_s: 'the fleet has no Helm or Kustomize unit (--no-units)',
  sync_one_unit_s_per_file: 'no unit (--no-units)',
  sync_one_unit_vs_budget: 'no unit (--no-units)',
  sync_one_unit_cpu_s: 'no unit (--no-units)',
  sync_one_unit_vs_cpu_budget: 'no unit (--no-units)',
};

interface Target {
  figure: keyof Figures;
  text: string;
  pass: (v: number) => boolean;
  /** The fleet sizes the target is set for (the issue: L unless noted); elsewhere the verdict is shown in brackets, for information. */
  sizes: readonly string[];
}

const L = ['L'];
const L_XL = ['L', 'XL'];
const ANY = ['S', 'M', 'L', 'XL'];
const BUDGET = '≤ 1: 60 ms + 2 × files × cold s/file (L)';

export const TARGETS: Target[] = [
  { figure: 'render_vs_fast_import', text: '≤ 1.5 (L, XL)', pass: (v) => v <= 1.5, sizes: L_XL },
  { figure: 'sync_vs_cold', text: '≥ 100 (L)', pass: (v) => v >= 100, sizes: L },
  { figure: 'sync_one_template_s', text: '< 0.1 (L, XL)', pass: (v) => v < 0.1, sizes: L_XL },
  { figure: 'sync_one_template_vs_budget', text: BUDGET, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_policy_vs_budget', text: BUDGET, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_cluster_vs_budget', text: BUDGET, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_override_vs_budget', text: BUDGET, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_unit_vs_budget', text: BUDGET, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_template_vs_cpu_budget', text: `${BUDGET}, CPU`, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_policy_vs_cpu_budget', text: `${BUDGET}, CPU`, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_cluster_vs_cpu_budget', text: `${BUDGET}, CPU`, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_override_vs_cpu_budget', text: `${BUDGET}, CPU`, pass: (v) => v <= 1, sizes: L },
  { figure: 'sync_one_unit_vs_cpu_budget', text: `${BUDGET}, CPU`, pass: (v) => v <= 1, sizes: L },
  { figure: 'noop_commits', text: '= 0', pass: (v) => v === 0, sizes: ANY },
  { figure: 'schedule_bindings_per_s', text: '≥ 5,000 (L)', pass: (v) => v >= 5000, sizes: L },
  { figure: 'schedule_huge_replicas_ms', text: '< 1,000', pass: (v) => v < 1000, sizes: ANY },
  { figure: 'peak_rss_mb', text: '< 1,024 (L)', pass: (v) => v < 1024, sizes: L },
  { figure: 'peak_rss_mb', text: '< 2,048 (XL)', pass: (v) => v < 2048, sizes: ['XL'] },
  // A tenth of the 10 s Lease renew deadline, a fifth of the liveness probe's 5 s timeout (deploy/kubernetes).
  { figure: 'render_cold_longest_stall_ms', text: '< 1,000 (L, XL)', pass: (v) => v < 1000, sizes: L_XL },
  { figure: 'push_to_applied_p50_ms', text: '< 300', pass: (v) => v < 300, sizes: ANY },
  { figure: 'push_to_applied_p95_ms', text: '< 1,000', pass: (v) => v < 1000, sizes: ANY },
  { figure: 'noop_member_writes', text: '= 0', pass: (v) => v === 0, sizes: ANY },
  { figure: 'noop_pass_commits', text: '= 0', pass: (v) => v === 0, sizes: ANY },
  { figure: 'dashboard_fleet_api_ms', text: '< 200 (L)', pass: (v) => v < 200, sizes: L },
  { figure: 'dashboard_interactive_ms', text: '< 1,000 (L)', pass: (v) => v < 1000, sizes: L },
  { figure: 'kustomize_vs_render', text: '≥ 5 (M)', pass: (v) => v >= 5, sizes: ['M'] },
];

/** Every target with a figure: its verdict, and whether the target is set for this size at all. */
export function judge(size: string, f: Figures): Record<string, { target: string; pass: boolean; applies: boolean }> {
  return Object.fromEntries(
    targetsFor(size).flatMap((t) => {
      const v = f[t.figure];
      return v === null ? [] : [[t.figure, { target: t.text, pass: t.pass(v), applies: t.sizes.includes(size) }]];
    }),
  );
}

/** One target per figure: the one set for this size when a figure has several (peak RSS at L and at XL). */
function targetsFor(size: string): Target[] {
  const out = new Map<keyof Figures, Target>();
  for (const t of TARGETS) if (!out.has(t.figure) || t.sizes.includes(size)) out.set(t.figure, t);
  return [...out.values()];
}

/** What a sync may cost under the rule: 60 ms plus twice what writing its files costs in the cold render. */
export function syncBudget(filesWritten: number, coldSecondsPerFile: number): number {
  return 0.06 + 2 * filesWritten * coldSecondsPerFile;
}

/** The syncs with a per-file figure and a verdict, in the order the bench runs them. */
export const SYNC_KINDS = ['template', 'policy', 'cluster', 'override', 'unit'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

type PerFileFigure =
  | 'render_cold_s_per_file'
  | `sync_one_${SyncKind}_s_per_file`
  | `sync_one_${SyncKind}_vs_budget`
  | `sync_one_${SyncKind}_vs_cpu_budget`
  | `sync_one_${Exclude<SyncKind, 'template'>}_cpu_s`;

type SyncFigure = { seconds: number; cpuSeconds: number; filesWritten: number };

type SteadyKind = Exclude<SyncKind, 'unit'>;
const STEADY_KINDS = SYNC_KINDS.filter((k): k is SteadyKind => k !== 'unit');

/** The cold render's seconds per file written: what the budgets are priced in. */
function coldSecondsPerFile(coldSeconds: number, filesWritten: number): number {
  return coldSeconds / Math.max(1, filesWritten);
}

/** The steady syncs' figures: their seconds, and each against its budget. */
export function steadyFigures(
  cold: { seconds: number; filesWritten: number },
  steady: Record<SteadyKind, SyncFigure>,
): Pick<Figures, `sync_one_${SteadyKind}_warm_s` | `sync_one_${SteadyKind}_warm_vs_budget`> {
  const perFile = coldSecondsPerFile(cold.seconds, cold.filesWritten);
  const out: Partial<Record<`sync_one_${SteadyKind}_warm_s` | `sync_one_${SteadyKind}_warm_vs_budget`, number>> = {};
  for (const kind of STEADY_KINDS) {
    const s = steady[kind];
    out[`sync_one_${kind}_warm_s`] = s.seconds;
    out[`sync_one_${kind}_warm_vs_budget`] = s.seconds / syncBudget(s.filesWritten, perFile);
  }
  return out as Pick<Figures, `sync_one_${SteadyKind}_warm_s` | `sync_one_${SteadyKind}_warm_vs_budget`>;
}

/** The bench's steps of one cluster's state on the status branch, in their order. */
export type ClusterStateStep = 'not_ready' | 'recovered' | 'no_execute' | 'ready_again' | 'grace_ended';

/** The cluster-state syncs' figures (bench step 4b): seconds, files, and the eviction against its budget. */
export function clusterStateFigures(
  cold: { seconds: number; filesWritten: number },
  syncs: Record<ClusterStateStep, SyncFigure>,
): Pick<Figures, `sync_cluster_${string}` & keyof Figures> {
  const perFile = coldSecondsPerFile(cold.seconds, cold.filesWritten);
  return {
    sync_cluster_not_ready_s: syncs.not_ready.seconds,
    sync_cluster_recovered_s: syncs.recovered.seconds,
    sync_cluster_no_execute_s: syncs.no_execute.seconds,
    sync_cluster_no_execute_files: syncs.no_execute.filesWritten,
    sync_cluster_no_execute_vs_budget: syncs.no_execute.seconds / syncBudget(syncs.no_execute.filesWritten, perFile),
    sync_cluster_ready_again_s: syncs.ready_again.seconds,
    sync_cluster_ready_again_files: syncs.ready_again.filesWritten,
    sync_cluster_grace_ended_s: syncs.grace_ended.seconds,
    sync_cluster_grace_ended_files: syncs.grace_ended.filesWritten,
    sync_cluster_grace_ended_vs_budget: syncs.grace_ended.seconds / syncBudget(syncs.grace_ended.filesWritten, perFile),
  };
}

/** The per-file figures and each sync against its budget (wall and CPU), from the syncs' seconds and files written. */
export function perFileFigures(
  cold: { seconds: number; cpuSeconds: number; filesWritten: number },
  syncs: Record<SteadyKind, SyncFigure> & { unit?: SyncFigure },
): Pick<Figures, PerFileFigure> {
  const perFile = coldSecondsPerFile(cold.seconds, cold.filesWritten);
  const cpuPerFile = coldSecondsPerFile(cold.cpuSeconds, cold.filesWritten);
  const out: Partial<Record<PerFileFigure, number | null>> = { render_cold_s_per_file: perFile };
  for (const kind of SYNC_KINDS) {
    const s = syncs[kind];
    if (!s) {
      for (const f of ['s_per_file', 'vs_budget', 'vs_cpu_budget', 'cpu_s'] as const)
        out[`sync_one_${kind}_${f}` as PerFileFigure] = null;
      continue;
    }
    out[`sync_one_${kind}_s_per_file`] = s.seconds / Math.max(1, s.filesWritten);
    out[`sync_one_${kind}_vs_budget`] = s.seconds / syncBudget(s.filesWritten, perFile);
    out[`sync_one_${kind}_vs_cpu_budget`] = s.cpuSeconds / syncBudget(s.filesWritten, cpuPerFile);
    if (kind !== 'template') out[`sync_one_${kind}_cpu_s`] = s.cpuSeconds;
  }
  return out as Pick<Figures, PerFileFigure>;
}

function verdict(t: Target, size: string, v: number): string {
  const word = t.pass(v) ? 'PASS' : 'FAIL';
  return t.sizes.includes(size) ? word : `(${word.toLowerCase()})`;
}

const ORDER: [keyof Figures, string][] = [
  ['render_cold_s', 's, in process'],
  ['render_cold_wall_s', 's, child wall'],
  ['render_cold_cpu_s', 's, CPU'],
  ['peak_rss_mb', 'MB'],
  ['render_cold_longest_stall_ms', 'ms, event loop'],
  ['fast_import_s', 's'],
  ['render_vs_fast_import', '×'],
  ['sync_one_template_s', 's'],
  ['sync_one_policy_s', 's'],
  ['sync_one_cluster_s', 's'],
  ['sync_one_override_s', 's'],
  ['sync_one_unit_s', 's, helm template once'],
  ['sync_one_template_warm_s', 's, steady (repo open)'],
  ['sync_one_policy_warm_s', 's, steady, edit taken back'],
  ['sync_one_cluster_warm_s', 's, steady, edit taken back'],
  ['sync_one_override_warm_s', 's, steady, edit taken back'],
  ['sync_one_template_cpu_s', 's, CPU'],
  ['sync_vs_cold', '×'],
  ['render_cold_s_per_file', 's/file'],
  ['sync_one_template_s_per_file', 's/file'],
  ['sync_one_policy_s_per_file', 's/file'],
  ['sync_one_cluster_s_per_file', 's/file'],
  ['sync_one_override_s_per_file', 's/file'],
  ['sync_one_unit_s_per_file', 's/file'],
  ['sync_one_template_vs_budget', '×'],
  ['sync_one_policy_vs_budget', '×'],
  ['sync_one_cluster_vs_budget', '×'],
  ['sync_one_override_vs_budget', '×'],
  ['sync_one_unit_vs_budget', '×'],
  ['sync_one_template_warm_vs_budget', '×, steady'],
  ['sync_one_policy_warm_vs_budget', '×, steady'],
  ['sync_one_cluster_warm_vs_budget', '×, steady'],
  ['sync_one_override_warm_vs_budget', '×, steady'],
  ['sync_one_policy_cpu_s', 's, CPU'],
  ['sync_one_cluster_cpu_s', 's, CPU'],
  ['sync_one_override_cpu_s', 's, CPU'],
  ['sync_one_unit_cpu_s', 's, CPU'],
  ['sync_one_template_vs_cpu_budget', '×, CPU'],
  ['sync_one_policy_vs_cpu_budget', '×, CPU'],
  ['sync_one_cluster_vs_cpu_budget', '×, CPU'],
  ['sync_one_override_vs_cpu_budget', '×, CPU'],
  ['sync_one_unit_vs_cpu_budget', '×, CPU'],
  ['noop_commits', ''],
  ['noop_sync_s', 's'],
  ['sync_cluster_not_ready_s', 's, status branch'],
  ['sync_cluster_recovered_s', 's, status branch'],
  ['sync_cluster_no_execute_s', 's, status branch'],
  ['sync_cluster_no_execute_files', 'files'],
  ['sync_cluster_no_execute_vs_budget', '×'],
  ['sync_cluster_ready_again_s', 's, status branch'],
  ['sync_cluster_ready_again_files', 'files'],
  ['sync_cluster_grace_ended_s', 's, 601 s later'],
  ['sync_cluster_grace_ended_files', 'files'],
  ['sync_cluster_grace_ended_vs_budget', '×'],
  ['syncs_peak_rss_mb', 'MB, bench process through the syncs'],
  ['schedule_bindings_per_s', '/s'],
  ['schedule_bindings_per_cpu_s', '/CPU s'],
  ['schedule_huge_replicas_ms', 'ms, 2147483647 replicas'],
  ['push_to_applied_p50_ms', 'ms'],
  ['push_to_applied_p95_ms', 'ms'],
  ['apply_objects_per_s', '/s'],
  ['noop_member_writes', 'requests'],
  ['noop_pass_commits', ''],
  ['dashboard_fleet_api_ms', 'ms, a page'],
  ['dashboard_fleet_api_cold_ms', 'ms, first after start'],
  ['dashboard_interactive_ms', 'ms, open → first row'],
  ['dashboard_object_api_ms', 'ms, one template'],
  ['dashboard_explain_api_ms', 'ms, one template'],
  ['dashboard_changes_api_first_ms', 'ms, first after start'],
  ['dashboard_changes_api_ms', 'ms, 30 commits'],
  ['dashboard_attention_api_ms', 'ms'],
  ['kustomize_s', 's, sum of builds'],
  ['kustomize_vs_render', '×'],
];

export function formatTable(size: string, f: Figures): string {
  const rows: string[][] = [['figure', 'value', 'unit', 'target', '']];
  const targets = targetsFor(size);
  for (const [key, unit] of ORDER) {
    const target = targets.find((t) => t.figure === key);
    const v = f[key];
    if (v === null) rows.push([key, 'n/a', '', target?.text ?? '', NOT_MEASURED[key] ?? '']);
    else rows.push([key, format(v), unit, target?.text ?? '', target ? verdict(target, size, v) : '']);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    `\nFlotilla bench, size ${size} (a verdict in brackets: the target is set for another size)`,
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
    '',
    ...peerLines(size, f),
    '',
    '',
  ].join('\n');
}

/**
 * The peers' published figures beside ours: they are not measured here (no Karmada control plane, Argo CD or Flux
 * runs on this machine), so they are quoted, with the figure of this run that answers the same question.
 */
function peerLines(size: string, f: Figures): string[] {
  const fleet = FLEET_SIZES[size as FleetSize];
  const scale = fleet ? ` (${fleet.templates.toLocaleString('en-US')} templates x ${fleet.clusters} clusters)` : '';
  return [
    'For comparison, as the peers publish them (not measured here):',
    `  Karmada: P99 1.3 s from API submission to the object on a member     this run: push -> applied p95 ${format(f.push_to_applied_p95_ms)} ms`,
    `  Argo CD: 22 min to sync 50k apps on 500 clusters                       this run: cold render ${format(f.render_cold_s)} s${scale}`,
    `  Flux: 4 min for 1,000 Kustomizations                                   this run: one-template sync ${format(f.sync_one_template_s)} s`,
  ];
}

function format(v: number): string {
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  if (v >= 100) return Math.round(v).toLocaleString('en-US');
  if (v >= 1) return v.toFixed(2);
  if (v > 0 && v < 0.01) return v.toExponential(2); // seconds per file: 1.08e-4
  return v.toFixed(3);
}
