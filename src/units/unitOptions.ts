import { FLOTILLA_API_VERSION } from '../api/kinds.ts';
import type { ClusterAffinity } from '../api/policy.ts';
import { CLUSTER_AFFINITY_SCHEMA } from '../documents/schema/karmadaSchemas.ts';
import { validateAgainstSchema } from '../documents/schema/validateAgainstSchema.ts';
import { validateClusterAffinityRules } from '../documents/schema/validateKarmadaRules.ts';
import type { Problem } from '../errors/problem.ts';
import type { SourceDocument } from '../documents/parseDocuments.ts';
import { suggestName } from '../text/suggestName.ts';
import { valueFileRefusal } from './helmValueFiles.ts';
import { remoteReason } from './parseKustomization.ts';
import { resolveRelative, type UnitTool } from './detectUnits.ts';

/** The file in a unit's folder that holds its options; a folder without one renders with the defaults. */
export const UNIT_OPTIONS_FILE = 'flotilla-unit.yaml';

/**
 * A Helm unit's options (kind HelmUnit), named as in an Argo CD Application's `source.helm`. Defaults: the release
 * is named after the folder, in namespace `default`; values.yaml only; CRDs included (Argo CD's default).
 */
export interface HelmOptions {
  releaseName?: string;
  namespace?: string;
  /**
   * Applied in order after values.yaml: relative to the chart's folder, or to the repository's root with a leading
   * '/', anywhere in the repository (Argo CD's rule).
   */
  valueFiles?: string[];
  /** Value files the commit lacks are passed over instead of holding the chart (Argo CD's option of that name). */
  ignoreMissingValueFiles?: boolean;
  /** A YAML block of values, applied after the value files (Argo CD's `values`). */
  values?: string;
  /** The same as an object (Argo CD's `valuesObject`); wins over `values`. */
  valuesObject?: Record<string, unknown>;
  /** `--set name=value` (`--set-string` when forceString), applied last. */
  parameters?: { name: string; value: string; forceString?: boolean }[];
  includeCRDs?: boolean;
  /** Argo CD's way to leave the chart's crds/ out (helm's --skip-crds); the same as includeCRDs: false. */
  skipCrds?: boolean;
  /** Argo CD's: the values are not checked against the chart's values.schema.json (helm's --skip-schema-validation). */
  skipSchemaValidation?: boolean;
  /** Argo CD's: test hooks left out. Always so here (they run on `helm test`): only true is taken. */
  skipTests?: boolean;
  /** `--set-file name=path`: a value read from a file of the chart's folder (Argo CD's `fileParameters`). */
  fileParameters?: { name: string; path: string }[];
  /** `.Capabilities.KubeVersion` (helm's --kube-version). */
  kubeVersion?: string;
  /** Extra `.Capabilities.APIVersions` (helm's --api-versions). */
  apiVersions?: string[];
}

/** A Kustomize unit's options (kind KustomizeUnit), named as in an Argo CD Application's `source.kustomize`. */
export interface KustomizeOptions {
  namePrefix?: string;
  nameSuffix?: string;
  namespace?: string;
  /** Argo CD's form: `[old=]new[:tag|@digest]`. */
  images?: string[];
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  /** A label the kustomization's commonLabels has is overwritten (`kustomize edit add label --force`), not refused. */
  forceCommonLabels?: boolean;
  /** The same for commonAnnotations. */
  forceCommonAnnotations?: boolean;
  /**
   * commonLabels go to the kustomization's `labels` without selectors (`kustomize edit add label --without-selector`):
   * a Deployment's selector, which cannot change, keeps its labels.
   */
  labelWithoutSelector?: boolean;
  /** With labelWithoutSelector: the labels reach pod templates too (`--include-templates`). */
  labelIncludeTemplates?: boolean;
  /** A Deployment's, StatefulSet's or ReplicaSet's replica count by name (`kustomize edit set replicas`). */
  replicas?: { name: string; count: number }[];
  /**
   * Added after the kustomization's own `patches`, as Argo CD adds them: inline (`patch`) or a file of the unit's
   * folder (`path`), with an optional target.
   */
  patches?: KustomizePatch[];
  /**
   * Components added to the kustomization's own (`kustomize edit add component`), relative to the unit's folder:
   * kustomizations of kind Component in the commit, which become the unit's inputs.
   */
  components?: string[];
  /** Components the commit lacks are passed over instead of holding the unit (Argo CD's option of that name). */
  ignoreMissingComponents?: boolean;
}

/** A kustomize `patches` entry (Argo CD's KustomizePatch). */
export interface KustomizePatch {
  path?: string;
  patch?: string;
  target?: Partial<Record<(typeof PATCH_TARGET_FIELDS)[number], string>>;
  options?: Record<string, boolean>;
}

/** A patch target's fields (kustomize's Selector: a resource id, and label and annotation selectors). */
const PATCH_TARGET_FIELDS = [
  'group',
  'version',
  'kind',
  'name',
  'namespace',
  'labelSelector',
  'annotationSelector',
] as const;

/**
 * A unit's options. `scope` is spec.clusterAffinity (either kind), Karmada's ClusterAffinity: set, the unit is scoped
 * and its objects go only to the clusters it selects, so overlays of one base can each serve their own clusters.
 */
export type UnitOptions = ({ tool: 'helm'; helm: HelmOptions } | { tool: 'kustomize'; kustomize: KustomizeOptions }) & {
  scope?: ClusterAffinity;
};

const KINDS: Record<UnitTool, string> = { helm: 'HelmUnit', kustomize: 'KustomizeUnit' };
const HELM_FIELDS = [
  'releaseName',
  'namespace',
  'valueFiles',
  'ignoreMissingValueFiles',
  'values',
  'valuesObject',
  'parameters',
  'includeCRDs',
  'skipCrds',
  'skipSchemaValidation',
  'skipTests',
  'fileParameters',
  'kubeVersion',
  'apiVersions',
  'clusterAffinity',
] as const;
const KUSTOMIZE_FIELDS = [
  'namePrefix',
  'nameSuffix',
  'namespace',
  'images',
  'commonLabels',
  'commonAnnotations',
  'forceCommonLabels',
  'forceCommonAnnotations',
  'labelWithoutSelector',
  'labelIncludeTemplates',
  'replicas',
  'patches',
  'components',
  'ignoreMissingComponents',
  'clusterAffinity',
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringMap = (v: unknown): v is Record<string, string> =>
  isObj(v) && Object.values(v).every((s) => typeof s === 'string');

/**
 * A unit's options from its flotilla-unit.yaml documents (pure): one HelmUnit or KustomizeUnit document, matching
 * the unit's tool, with known fields of the right types. Problems point at the field.
 */
export function parseUnitOptions(
  tool: UnitTool,
  file: string,
  documents: readonly SourceDocument[],
): { options: UnitOptions; problems: Problem[] } {
  const empty: UnitOptions = tool === 'helm' ? { tool, helm: {} } : { tool, kustomize: {} };
  const problems: Problem[] = [];
  if (documents.length === 0) return { options: empty, problems };
  const doc = documents[0]!;
  const problem = (path: (string | number)[], code: Problem['code'], message: string, fix: string) =>
    problems.push({ ...doc.locate(path), code, severity: 'error', message, fix });
  if (documents.length > 1)
    problems.push({
      ...documents[1]!.source,
      code: 'INVALID_VALUE',
      severity: 'error',
      message: `${file} holds ${documents.length} documents; a unit has one set of options`,
      fix: 'keep one document',
    });
  const value = doc.value;
  const kind = KINDS[tool];
  if (!isObj(value) || value.apiVersion !== FLOTILLA_API_VERSION || value.kind !== kind) {
    problem(
      [],
      'INVALID_VALUE',
      `the options of a ${tool === 'helm' ? 'Helm chart' : 'Kustomize folder'} are apiVersion ${FLOTILLA_API_VERSION}, kind ${kind}`,
      `start ${file} with apiVersion: ${FLOTILLA_API_VERSION} and kind: ${kind}`,
    );
    return { options: empty, problems };
  }
  for (const key of Object.keys(value))
    if (!['apiVersion', 'kind', 'metadata', 'spec'].includes(key))
      problem([key], 'UNKNOWN_FIELD', `${kind} has no field ${key}`, 'put the options under spec');
  const spec = value.spec ?? {};
  if (!isObj(spec)) {
    problem(
      ['spec'],
      'INVALID_VALUE',
      'spec must be a mapping',
      `write the options as fields of spec (${(tool === 'helm' ? HELM_FIELDS : KUSTOMIZE_FIELDS).join(', ')})`,
    );
    return { options: empty, problems };
  }
  const fields: readonly string[] = tool === 'helm' ? HELM_FIELDS : KUSTOMIZE_FIELDS;
  for (const key of Object.keys(spec)) {
    if (fields.includes(key)) continue;
    const guess = suggestName(key, fields);
    problem(
      ['spec', key],
      'UNKNOWN_FIELD',
      `${kind} has no field spec.${key}`,
      guess ? `did you mean spec.${guess}?` : `the fields are ${fields.join(', ')}`,
    );
  }
  const wrong = (key: string, what: string) =>
    problem(['spec', key], 'INVALID_VALUE', `spec.${key} must be ${what}`, `write spec.${key} as ${what}`);
  const checks: Record<string, [(v: unknown) => boolean, string]> = {
    releaseName: [
      (v) => typeof v === 'string' && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v) && v.length <= 53,
      "a DNS-1123 name of at most 53 characters (Helm's rule)",
    ],
    namespace: [
      (v) => typeof v === 'string' && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v) && v.length <= 63,
      'a namespace name (DNS-1123 label)',
    ],
    valueFiles: [isStringList, 'a list of paths'],
    ignoreMissingValueFiles: [(v) => typeof v === 'boolean', 'true or false'],
    values: [(v) => typeof v === 'string', 'a YAML block (a string, `values: |`)'],
    valuesObject: [isObj, 'a mapping'],
    parameters: [
      (v) =>
        Array.isArray(v) &&
        v.every(
          (p) =>
            isObj(p) &&
            typeof p.name === 'string' &&
            p.name !== '' &&
            ['string', 'number', 'boolean'].includes(typeof p.value) &&
            (p.forceString === undefined || typeof p.forceString === 'boolean'),
        ),
      'a list of {name, value, forceString}',
    ],
    includeCRDs: [(v) => typeof v === 'boolean', 'true or false'],
    skipCrds: [(v) => typeof v === 'boolean', 'true or false'],
    skipSchemaValidation: [(v) => typeof v === 'boolean', 'true or false'],
    skipTests: [
      (v) => v === true,
      "true: a chart's test hooks are always left out here (they run on `helm test`, never on install); remove the field",
    ],
    fileParameters: [
      (v) =>
        Array.isArray(v) &&
        v.every((p) => isObj(p) && typeof p.name === 'string' && p.name !== '' && typeof p.path === 'string'),
      'a list of {name, path}',
    ],
    kubeVersion: [(v) => typeof v === 'string' && /^v?\d+\.\d+(\.\d+)?/.test(v), 'a Kubernetes version such as 1.32.0'],
    apiVersions: [isStringList, 'a list of group/version strings'],
    namePrefix: [(v) => typeof v === 'string', 'a string'],
    nameSuffix: [(v) => typeof v === 'string', 'a string'],
    images: [
      (v) => isStringList(v) && v.every((i) => kustomizeImage(i) !== undefined),
      'a list of `[old=]new[:tag|@digest]` strings, each naming a new name, a tag or a digest (kustomize edit set image refuses a bare name)',
    ],
    commonLabels: [isStringMap, 'a mapping of strings'],
    commonAnnotations: [isStringMap, 'a mapping of strings'],
    forceCommonLabels: [(v) => typeof v === 'boolean', 'true or false'],
    forceCommonAnnotations: [(v) => typeof v === 'boolean', 'true or false'],
    patches: [
      (v) => Array.isArray(v) && v.every(isObj),
      'a list of patches ({patch, target} or {path, target}), as in a kustomization',
    ],
    components: [(v) => isStringList(v) && v.every((c) => c !== ''), 'a list of paths of Component folders'],
    ignoreMissingComponents: [(v) => typeof v === 'boolean', 'true or false'],
    labelWithoutSelector: [(v) => typeof v === 'boolean', 'true or false'],
    labelIncludeTemplates: [(v) => typeof v === 'boolean', 'true or false'],
    replicas: [
      (v) =>
        Array.isArray(v) &&
        v.every(
          (r) =>
            isObj(r) &&
            Object.keys(r).every((key) => key === 'name' || key === 'count') &&
            typeof r.name === 'string' &&
            r.name !== '' &&
            'count' in r,
        ),
      'a list of {name, count}',
    ],
  };
  const out: Obj = {};
  let scope: ClusterAffinity | undefined;
  if ('clusterAffinity' in spec) {
    // Checked as a policy's placement.clusterAffinity is, so its problems read the same, at the field's line.
    const path = ['spec', 'clusterAffinity'];
    const issues = validateAgainstSchema(spec.clusterAffinity, CLUSTER_AFFINITY_SCHEMA, path);
    if (issues.length === 0) issues.push(...validateClusterAffinityRules(spec.clusterAffinity, path));
    for (const issue of issues) problem(issue.path, issue.code, issue.message, issue.fix);
    if (issues.length === 0) scope = spec.clusterAffinity as ClusterAffinity;
  }
  for (const key of fields) {
    if (!(key in spec) || key === 'clusterAffinity') continue;
    const [ok, what] = checks[key]!;
    if (!ok(spec[key])) {
      wrong(key, what);
      continue;
    }
    out[key] = spec[key];
  }
  if (tool === 'helm') {
    const dir = file.slice(0, Math.max(file.lastIndexOf('/'), 0));
    (out.valueFiles as string[] | undefined)?.forEach((f, i) => {
      const refused = valueFileRefusal(dir, f);
      if (refused) problem(['spec', 'valueFiles', i], 'INVALID_VALUE', refused.message, refused.fix);
    });
    (out.fileParameters as { name: string; path: string }[] | undefined)?.forEach((p, i) => {
      // Read from the chart's folder, which the unit copies out of the commit whole: a path elsewhere is not there.
      // Written as Argo CD takes it, relative to the chart's folder (`./files/app.conf` too).
      const resolved = p.path.startsWith('/') || remoteReason(p.path) ? undefined : resolveRelative(dir, p.path);
      if (resolved === undefined || !resolved.startsWith(`${dir}/`))
        problem(
          ['spec', 'fileParameters', i, 'path'],
          'INVALID_VALUE',
          `spec.fileParameters[${i}].path is ${JSON.stringify(p.path)}: a file parameter is read from the chart's folder, relative to it`,
          "move the file into the chart's folder and name it relative to the folder (files/config.json)",
        );
      // Helm splits a --set-file argument at commas and its key at `=`, and reads a backslash as an escape: either in
      // a name or path would make helm read a second file the commit does not hold (`a=/etc/passwd,b`).
      const separators = (field: 'name' | 'path', held: string, fix: string) => {
        const found = [...new Set([...p[field]].filter((c) => held.includes(c)))];
        if (found.length > 0)
          problem(
            ['spec', 'fileParameters', i, field],
            'INVALID_VALUE',
            `spec.fileParameters[${i}].${field} is ${JSON.stringify(p[field])}: helm reads ${found.map((c) => `\`${c}\``).join(' and ')} in a file parameter as a separator, so a ${field} cannot hold it`,
            fix,
          );
      };
      separators(
        'name',
        ',=\\',
        'name the value with letters, digits, dots and brackets only (config, files.app, items[0])',
      );
      separators('path', ',\\', 'rename the file without commas or backslashes');
    });
    if (out.includeCRDs === true && out.skipCrds === true)
      problem(
        ['spec', 'skipCrds'],
        'INVALID_VALUE',
        'spec.skipCrds is true and spec.includeCRDs is true: they contradict each other',
        'keep one of them (skipCrds: true leaves the crds/ folder out, as includeCRDs: false does)',
      );
  }
  // Argo CD passes both flags to kustomize edit add label only when there are labels, and kustomize refuses this one alone.
  if (
    out.labelIncludeTemplates === true &&
    out.labelWithoutSelector !== true &&
    Object.keys((out.commonLabels as object | undefined) ?? {}).length > 0
  )
    problem(
      ['spec', 'labelIncludeTemplates'],
      'INVALID_VALUE',
      'spec.labelIncludeTemplates is true without spec.labelWithoutSelector: kustomize edit add label refuses --include-templates without --without-selector',
      'set spec.labelWithoutSelector: true as well (labels then leave selectors alone), or remove spec.labelIncludeTemplates',
    );
  if (tool === 'kustomize' && Array.isArray(out.patches)) {
    const dir = file.slice(0, Math.max(file.lastIndexOf('/'), 0));
    (out.patches as Obj[]).forEach((p, i) => {
      for (const problem of patchProblems(dir, p, i))
        problems.push({ ...doc.locate(problem.path), ...problem.problem });
    });
  }
  if (Array.isArray(out.replicas)) {
    const replicas = out.replicas as { name: string; count: unknown }[];
    replicas.forEach((r, i) => {
      if (replicaCount(r.count) === undefined)
        problem(
          ['spec', 'replicas', i, 'count'],
          'INVALID_VALUE',
          `spec.replicas[${i}].count is ${JSON.stringify(r.count)}: a replica count is a whole number`,
          'write the count as a whole number (3, or "3")',
        );
      // kustomize edit set replicas splits its `name=count` argument at every `=`.
      if (r.name.includes('='))
        problem(
          ['spec', 'replicas', i, 'name'],
          'INVALID_VALUE',
          `spec.replicas[${i}].name is ${JSON.stringify(r.name)}: kustomize edit set replicas cannot take a name holding \`=\``,
          'name the Deployment or StatefulSet by its metadata.name',
        );
    });
    out.replicas = replicas.map((r) => ({ name: r.name, count: replicaCount(r.count) ?? 0 }));
  }
  if (tool === 'helm' && Array.isArray(out.parameters))
    out.parameters = (out.parameters as Obj[]).map((p) => ({ ...p, value: String(p.value) }));
  const options: UnitOptions =
    tool === 'helm' ? { tool, helm: out as HelmOptions } : { tool, kustomize: out as KustomizeOptions };
  return { options: scope ? { ...options, scope } : options, problems };
}

/** What is wrong with spec.patches[i] (pure): its fields, and a path leading out of the unit's folder. */
function patchProblems(
  dir: string,
  p: Obj,
  i: number,
): { path: (string | number)[]; problem: Omit<Problem, 'file' | 'line' | 'column'> }[] {
  const out: { path: (string | number)[]; problem: Omit<Problem, 'file' | 'line' | 'column'> }[] = [];
  const at = ['spec', 'patches', i];
  const refuse = (path: (string | number)[], message: string, fix: string, code: Problem['code'] = 'INVALID_VALUE') =>
    out.push({ path, problem: { code, severity: 'error', message, fix } });
  for (const key of Object.keys(p))
    if (!['path', 'patch', 'target', 'options'].includes(key)) {
      const guess = suggestName(key, ['path', 'patch', 'target', 'options']);
      refuse(
        [...at, key],
        `a patch has no field ${key}`,
        guess ? `did you mean ${guess}?` : 'the fields are path, patch, target, options',
        'UNKNOWN_FIELD',
      );
    }
  for (const key of ['path', 'patch'] as const)
    if (key in p && typeof p[key] !== 'string')
      refuse([...at, key], `spec.patches[${i}].${key} must be a string`, `write ${key} as a string`);
  // kustomize's PatchTransformer: "empty file path and empty patch content", "patch and path can't be set at the same time".
  const hasPath = typeof p.path === 'string' && p.path !== '';
  const hasPatch = typeof p.patch === 'string' && p.patch !== '';
  if (hasPath === hasPatch)
    refuse(
      at,
      hasPath
        ? `spec.patches[${i}] has both path and patch: kustomize takes one of them`
        : `spec.patches[${i}] has neither path nor patch`,
      "give the patch inline (patch: |) or as a file of the unit's folder (path:), not both",
    );
  if (hasPath) {
    const written = p.path as string;
    const resolved = remoteReason(written) ? undefined : resolveRelative(dir, written);
    if (resolved === undefined || !resolved.startsWith(`${dir}/`))
      refuse(
        [...at, 'path'],
        `spec.patches[${i}].path is ${JSON.stringify(written)}: a patch file is read from the unit's folder (kustomize reads no file outside the kustomization's folder, and a render reads only the commit)`,
        `move the patch into ${dir} and name it relative to the folder (patches/replicas.yaml), or write it inline (patch: |)`,
      );
  }
  if ('target' in p) {
    const target = p.target;
    if (!isObj(target) || Object.values(target).some((v) => typeof v !== 'string'))
      refuse(
        [...at, 'target'],
        `spec.patches[${i}].target must be a mapping of strings`,
        `write target as {kind: Deployment, name: web}`,
      );
    else
      for (const key of Object.keys(target))
        if (!(PATCH_TARGET_FIELDS as readonly string[]).includes(key)) {
          const guess = suggestName(key, PATCH_TARGET_FIELDS);
          refuse(
            [...at, 'target', key],
            `a patch target has no field ${key}`,
            guess ? `did you mean ${guess}?` : `the fields are ${PATCH_TARGET_FIELDS.join(', ')}`,
            'UNKNOWN_FIELD',
          );
        }
  }
  if ('options' in p && !(isObj(p.options) && Object.values(p.options).every((v) => typeof v === 'boolean')))
    refuse(
      [...at, 'options'],
      `spec.patches[${i}].options must be a mapping of true or false`,
      'write options as {allowNameChange: true} or {allowKindChange: true}',
    );
  return out;
}

/**
 * A replica count as Argo CD reads one (an IntOrString: a whole number, or a string strconv.Atoi takes), or undefined.
 */
function replicaCount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return undefined;
}

/** A kustomize images entry, as `kustomize edit set image` writes one. */
export interface KustomizeImage {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/**
 * Argo CD's image override `[old=]new[:tag|@digest]` as the images entry `kustomize edit set image` makes of it (its
 * setimage.go parse), or undefined where that command refuses the argument (a bare name: neither `=`, a tag nor a
 * digest). The name is split from its tag and digest as kustomize's image.Split does: at the first `:` and `@` after
 * the first `/`, so `nginx:1.2@sha256:…` is nginx with tag 1.2 and a digest, and a registry's port stays in the name.
 */
export function kustomizeImage(spec: string): KustomizeImage | undefined {
  const eq = spec.indexOf('=');
  const target = eq >= 0 ? spec.slice(eq + 1) : spec;
  const { name: image, tag, digest } = splitImageName(target);
  if (image === spec) return undefined;
  const name = eq >= 0 ? spec.slice(0, eq) : image;
  return {
    name,
    ...(eq >= 0 ? { newName: image } : {}),
    ...(tag !== '' ? { newTag: tag } : {}),
    ...(digest !== '' ? { digest } : {}),
  };
}

function splitImageName(image: string): { name: string; tag: string; digest: string } {
  const slash = Math.max(image.indexOf('/'), 0);
  const rest = image.slice(slash);
  const at = rest.indexOf('@');
  const colon = rest.indexOf(':');
  if (colon < 0 && at < 0) return { name: image, tag: '', digest: '' };
  if (at >= 0 && (at < colon || colon < 0))
    return { name: image.slice(0, slash + at), tag: '', digest: image.slice(slash + at + 1) };
  if (at >= 0)
    return { name: image.slice(0, slash + colon), tag: rest.slice(colon + 1, at), digest: rest.slice(at + 1) };
  return { name: image.slice(0, slash + colon), tag: rest.slice(colon + 1), digest: '' };
}
