// `flotilla interpret`: karmadactl interpret without a control plane. --check compiles every hook of the
// ResourceInterpreterCustomizations in -f and prints karmadactl's report; --operation runs one hook of them on the
// objects given, as the render, the applier or the status pass would, and prints each result.
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { LuaHook, ResourceInterpreterCustomization } from '../api/interpreterCustomization.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { validateLuaCustomization } from '../documents/schema/validateExtensionKinds.ts';
import { UsageError } from '../errors/UsageError.ts';
import { interpreterSet } from '../interpreters/customizations.ts';
import {
  luaAggregateStatus,
  luaGetComponents,
  luaGetDependencies,
  luaGetReplicas,
  luaInterpretHealth,
  luaReflectStatus,
  luaRetain,
  luaReviseReplica,
  type AggregatedStatusItem,
} from '../interpreters/lua/luaHooks.ts';
import type { DependentObjectReference } from '../interpreters/lua/luaConvert.ts';
import { checkLuaScript, loadLuaRuntime } from '../interpreters/lua/luaRuntime.ts';
import { rememberingTabs } from '../text/rememberingTabs.ts';
import { terminalSafe } from '../text/terminalSafe.ts';

type Obj = Record<string, unknown>;

export const INTERPRET_OPTIONS = {
  filename: { type: 'string', short: 'f', multiple: true },
  check: { type: 'boolean' },
  operation: { type: 'string' },
  'desired-file': { type: 'string' },
  'observed-file': { type: 'string' },
  'status-file': { type: 'string' },
  'desired-replica': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const INTERPRET_USAGE = `Usage: flotilla interpret -f CUSTOMIZATION.yaml (--check | --operation OPERATION [args])

Test Karmada ResourceInterpreterCustomizations locally, as karmadactl interpret does.
  --check                      compile every hook's luaScript: PASS, UNSET or ERROR per operation
  --operation OPERATION        run one hook: Retain, InterpretReplica, ReviseReplica, InterpretStatus,
                               AggregateStatus, InterpretHealth, InterpretDependency (any case)
  --desired-file FILE          the desiredObj argument (Retain; or the object of the other operations)
  --observed-file FILE         the observedObj argument (Retain; or the object of the other operations)
  --status-file FILE           AggregateStatus's statusItems: AggregatedStatusItem documents, or one list
  --desired-replica N          ReviseReplica's desiredReplica
Exit 0 when every check passes or the hook ran; 1 otherwise (karmadactl exits 0 after a failed run).`;

/** Karmada's rules in AllResourceInterpreterCustomizationRules order, by operation name. */
const RULES: readonly { operation: string; hook: LuaHook | 'componentResource' }[] = [
  { operation: 'Retain', hook: 'retention' },
  { operation: 'InterpretReplica', hook: 'replicaResource' },
  { operation: 'InterpretComponent', hook: 'componentResource' },
  { operation: 'ReviseReplica', hook: 'replicaRevision' },
  { operation: 'InterpretStatus', hook: 'statusReflection' },
  { operation: 'AggregateStatus', hook: 'statusAggregation' },
  { operation: 'InterpretHealth', hook: 'healthInterpretation' },
  { operation: 'InterpretDependency', hook: 'dependencyInterpretation' },
];

export interface InterpretOptions {
  filenames: string[];
  check: boolean;
  operation: string | undefined;
  desiredFile: string | undefined;
  observedFile: string | undefined;
  statusFile: string | undefined;
  desiredReplica: string | undefined;
  out: (s: string) => void;
  err: (s: string) => void;
}

export async function interpretCommand(o: InterpretOptions): Promise<number> {
  if (o.filenames.length === 0) throw new UsageError(`interpret needs -f FILE\n${INTERPRET_USAGE}`);
  if (o.check === (o.operation !== undefined))
    throw new UsageError(`interpret needs exactly one of --check and --operation\n${INTERPRET_USAGE}`);
  await loadLuaRuntime();
  const documents = o.filenames.flatMap((file) => readObjects(file));
  return o.check ? check(documents, o) : execute(documents, o);
}

function readObjects(file: string): { value: unknown; source: string }[] {
  const parsed = parseDocuments(file, readFileSync(file));
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0)
    throw new UsageError(errors.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
  return parsed.documents.map((d) => ({ value: d.value, source: file }));
}

function isObj(v: unknown): v is Obj {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

function check(documents: readonly { value: unknown; source: string }[], o: InterpretOptions): number {
  const lines: string[] = [];
  let failed = false;
  for (const { value, source } of documents) {
    lines.push('-----------------------------------');
    const name = isObj(value) && isObj(value.metadata) ? value.metadata.name : undefined;
    lines.push(`SOURCE: ${typeof name === 'string' && name ? name : source}`);
    if (
      !isObj(value) ||
      value.apiVersion !== 'config.karmada.io/v1alpha1' ||
      value.kind !== 'ResourceInterpreterCustomization'
    ) {
      failed = true;
      lines.push(`not a ResourceInterpreterCustomization, got ${groupVersionKind(value)}`);
      continue;
    }
    const target = isObj(value.spec) && isObj(value.spec.target) ? value.spec.target : {};
    if (typeof target.kind !== 'string' || !target.kind) {
      failed = true;
      lines.push('target.kind no set');
      continue;
    }
    if (typeof target.apiVersion !== 'string' || !target.apiVersion) {
      failed = true;
      lines.push('target.apiVersion no set');
      continue;
    }
    lines.push(`TARGET: ${target.apiVersion} ${target.kind}\t`, 'RULERS:');
    const customizations = isObj(value.spec) && isObj(value.spec.customizations) ? value.spec.customizations : {};
    for (const rule of RULES) {
      const body = customizations[rule.hook];
      const script = isObj(body) && typeof body.luaScript === 'string' ? body.luaScript : '';
      if (!script) {
        lines.push(`    ${rule.operation}:\tUNSET`);
        continue;
      }
      const error = checkLuaScript(script);
      if (error) {
        failed = true;
        lines.push(`    ${rule.operation}:\tERROR: <string> line:${error.line} ${error.message.trim()}\t`);
      } else lines.push(`    ${rule.operation}:\tPASS`);
    }
  }
  o.out(terminalSafe(rememberingTabs(lines), { multiline: true }));
  return failed ? 1 : 0;
}

/** `/v1, Kind=Pod`, as Go prints a GroupVersionKind. */
function groupVersionKind(value: unknown): string {
  const apiVersion = isObj(value) && typeof value.apiVersion === 'string' ? value.apiVersion : '';
  const kind = isObj(value) && typeof value.kind === 'string' ? value.kind : '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

function execute(documents: readonly { value: unknown; source: string }[], o: InterpretOptions): number {
  const rule = RULES.find((r) => r.operation.toLowerCase() === o.operation!.toLowerCase());
  if (!rule)
    throw new UsageError(
      `operation ${o.operation} is not supported. Use one of: ${RULES.map((r) => r.operation).join(', ')}`,
    );
  const customizations: ResourceInterpreterCustomization[] = [];
  for (const { value, source } of documents) {
    const issues = isObj(value) ? validateLuaCustomization(value) : [];
    if (!isObj(value) || value.kind !== 'ResourceInterpreterCustomization' || issues.length > 0)
      throw new UsageError(
        `${source}: not a valid ResourceInterpreterCustomization${issues.length ? `: ${issues.map((i) => i.message).join('; ')}` : ''}`,
      );
    customizations.push(value as unknown as ResourceInterpreterCustomization);
  }
  const desired = o.desiredFile ? oneObject(o.desiredFile) : undefined;
  const observed = o.observedFile ? oneObject(o.observedFile) : undefined;
  const fail = (message: string) => {
    o.err(terminalSafe(`Execute ${rule.operation} error: ${message}\n`, { multiline: true }));
    return 1;
  };
  // Retain takes both objects; every other operation one of them (karmadactl's getObjectOrError).
  let object: Obj | undefined;
  if (rule.operation === 'Retain') {
    if (!desired) return fail('desired, desired-file options are not set');
    if (!observed) return fail('observed, observed-file options are not set');
    object = desired;
  } else {
    if (!desired && !observed) return fail('desired-file, observed-file options are not set');
    if (desired && observed) return fail('you can not specify both desired-file and observed-file options');
    object = desired ?? observed;
  }
  const scripts = interpreterSet(
    customizations.map((object) => ({ object, source: { file: '', line: 1, column: 1 } })),
  ).get(`${String(object!.apiVersion)}/${String(object!.kind)}`)?.lua;
  if (rule.hook === 'componentResource') {
    // Not merged into the control plane's set (Karmada's gate leaves it off there): the first by name that has one.
    const script = [...customizations]
      .filter((c) => c.spec.target.apiVersion === object!.apiVersion && c.spec.target.kind === object!.kind)
      .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))
      .map(
        (c) =>
          (c.spec.customizations as Record<string, { luaScript?: string } | undefined>).componentResource?.luaScript,
      )
      .find((s) => Boolean(s));
    if (!script) return fail('rule is not enabled');
    try {
      return print(o, [['components', luaGetComponents(script, object!)]]);
    } catch (err) {
      return fail((err as Error).message);
    }
  }
  const script = rule.hook === 'dependencyInterpretation' ? undefined : scripts?.[rule.hook];
  const dependencyScripts = scripts?.dependencyInterpretation;
  if (rule.hook === 'dependencyInterpretation' ? !dependencyScripts?.length : !script)
    return fail('rule is not enabled');
  let results: [string, unknown][];
  try {
    results = run(rule.hook, script!, dependencyScripts ?? [], object!, observed, o);
  } catch (err) {
    return fail((err as Error).message);
  }
  return print(o, results);
}

/** karmadactl's result listing: `# [i/n] name:` and the value as YAML, keys sorted. */
function print(o: InterpretOptions, results: readonly [string, unknown][]): number {
  o.out(
    terminalSafe(
      results
        .map(
          ([name, value], i) =>
            `---\n# [${i + 1}/${results.length}] ${name}:\n${stringify(value ?? null, { sortMapEntries: true, indentSeq: false })}`,
        )
        .join(''),
      { multiline: true },
    ),
  );
  return 0;
}

function run(
  hook: LuaHook,
  script: string,
  dependencyScripts: readonly string[],
  object: Obj,
  observed: Obj | undefined,
  o: InterpretOptions,
): [string, unknown][] {
  switch (hook) {
    case 'retention':
      return [['retained', luaRetain(script, object, observed!)]];
    case 'replicaResource': {
      const { replicas, requirements } = luaGetReplicas(script, object);
      return [
        ['replica', replicas],
        ['requires', requirements ?? null],
      ];
    }
    case 'replicaRevision': {
      const replicas = Number(o.desiredReplica ?? '0');
      if (!Number.isInteger(replicas))
        throw new UsageError(`--desired-replica ${o.desiredReplica}: give a whole number`);
      return [['revised', luaReviseReplica(script, object, replicas)]];
    }
    case 'statusReflection':
      return [['status', luaReflectStatus(script, object) ?? null]];
    case 'statusAggregation':
      // karmadactl's getAggregatedStatusItems gives a nil slice without --status-file: the script's statusItems is nil.
      return [
        ['aggregatedStatus', luaAggregateStatus(script, object, o.statusFile ? statusItems(o.statusFile) : null)],
      ];
    case 'healthInterpretation':
      return [['healthy', luaInterpretHealth(script, object)]];
    case 'dependencyInterpretation': {
      const seen = new Map<string, DependentObjectReference>();
      for (const s of dependencyScripts) for (const d of luaGetDependencies(s, object)) seen.set(JSON.stringify(d), d);
      return [['dependencies', [...seen.values()].sort(byConfigurableOrder)]];
    }
  }
}

/** The order Karmada's configurable interpreter returns dependencies in (configurable.go GetDependencies). */
function byConfigurableOrder(a: DependentObjectReference, b: DependentObjectReference): number {
  for (const key of ['apiVersion', 'kind', 'namespace', 'name'] as const) {
    const [x, y] = [a[key] ?? '', b[key] ?? ''];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function oneObject(file: string): Obj {
  const objects = readObjects(file);
  const first = objects[0]?.value;
  if (objects.length !== 1 || !isObj(first)) throw new UsageError(`${file}: give exactly one object`);
  return first;
}

/**
 * AggregatedStatusItem documents, or lists of them, in file order. An item without clusterName is decoded as Go
 * decodes it, with the empty name (the field has no omitempty, so the script still sees clusterName = "").
 */
function statusItems(file: string): AggregatedStatusItem[] {
  const items = readObjects(file).flatMap(({ value }) => (Array.isArray(value) ? value : [value]));
  return items.map((item) => {
    if (!isObj(item)) throw new UsageError(`${file}: each status item must be a mapping (an AggregatedStatusItem)`);
    if (item.clusterName === undefined || item.clusterName === null) return { ...item, clusterName: '' };
    if (typeof item.clusterName !== 'string')
      throw new UsageError(
        `${file}: a status item's clusterName must be a string, got ${JSON.stringify(item.clusterName)}`,
      );
    return item as unknown as AggregatedStatusItem;
  });
}
