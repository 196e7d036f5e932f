import { parse } from 'yaml';
import { CLUSTER_API_VERSION, groupOf, POLICY_API_VERSION, type ObjectRef } from '../api/kinds.ts';
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import { emptyFileObjects, type FileObjects, type UnitOrigin } from '../api/model.ts';
import { classifyDocuments } from '../documents/classifyDocuments.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import { originFile, outputObjectId, takeOrigin } from './kustomizeOrigins.ts';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { hookDisposition, skippedHookProblem } from './syncHooks.ts';
import type { ChartPlace } from './subchartPaths.ts';
import { placeRenderedDocuments, type RenderedHead } from './templateSections.ts';

/** Label and annotation keys Flotilla and the binding controller write: a unit setting one could pose as their output. */
export function isReservedKey(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash < 0 ? '' : key.slice(0, slash);
  if (domain === 'flotilla.io' || domain.endsWith('.flotilla.io')) return true;
  if (key === MANAGED_LABEL) return true;
  return (
    ['resourcebinding.karmada.io', 'clusterresourcebinding.karmada.io'].includes(domain) ||
    key === 'work.karmada.io/namespace' ||
    key === 'work.karmada.io/name'
  );
}

/**
 * The objects the units one render renders may hold together (renderUnits.ts), and so one unit: as many as a commit's
 * plain files may (SourceLimits' maxObjects). Each unit's output is capped in bytes (16 MiB), but one-line objects fit
 * 150,000 in that, and a pull request adds as many units as it likes.
 */
export const MAX_UNIT_OBJECTS = 100_000;

/**
 * A unit's tool output as the objects of one source "file", the unit's marker (pure). Each object is a resource
 * template whose source is the marker and whose origin is the file the tool named (Helm's `# Source:` comments;
 * Kustomize's origin annotation, taken out of the object unless `keepOrigins`, else the kustomization). The output is the tool's, so it is checked like a pull request's files and more:
 * names that would escape a cluster folder, Karmada's own kinds, Flotilla's labels and annotations are errors, and a
 * unit with any error is held whole (unreadable): its last good output stays, nothing half-rendered goes out. Hooks
 * are sorted as Argo CD sorts them (syncHooks.ts): one no successful sync runs is left out with a warning;
 * `warnings` are the tool's own (objects helm left out).
 */
export function parseUnitOutput(
  unit: UnitOrigin,
  stdout: Uint8Array,
  warnings: readonly Problem[] = [],
  opts: {
    keepOrigins?: boolean;
    /** Origin annotations by object identity (kustomizeOrigins.ts), for an output built without them. */
    origins?: Readonly<Record<string, string>>;
    /** Where each object is in the file its origin names, by object identity (kustomizePlaces.ts). */
    places?: Readonly<Record<string, SourceSpan>>;
    /** Helm: the file of the commit a `# Source:` path in the chart names (subchartPaths.ts). */
    sourceFile?: (inChart: string) => ChartPlace;
    /** Helm: the committed text of a template a `# Source:` path names, to place its documents in (chunksOf). */
    templateText?: (place: ChartPlace) => string | undefined;
  } = {},
): FileObjects {
  const out = emptyFileObjects(unit.marker, { unit, problems: [...warnings] });
  const text = new TextDecoder().decode(stdout);
  // Counted before anything is parsed: each object is a document of its own, and every document after the first
  // starts at a `---` line (in a block scalar such a line would be indented).
  const documents = 1 + (text.match(/^---/gm)?.length ?? 0);
  if (documents > MAX_UNIT_OBJECTS) {
    out.problems.push({
      file: unit.marker,
      line: 1,
      column: 1,
      code: 'COMMIT_TOO_LARGE',
      severity: 'error',
      message: `${unit.tool === 'helm' ? 'helm template' : `kustomize build ${unit.dir}`} output holds ${documents} documents, over the ${MAX_UNIT_OBJECTS} objects one render takes: the unit is held, keeping what it rendered before`,
      fix: 'split the objects over fewer, smaller charts or kustomizations, or generate fewer',
    });
    out.unreadable = true;
    return out;
  }
  const recordedOrigin = (object: unknown) => {
    const id = outputObjectId(object);
    const text = id === undefined ? undefined : opts.origins?.[id];
    return text === undefined ? undefined : originFile(text, unit.dir);
  };
  const toolLabel = unit.tool === 'helm' ? 'helm template' : `kustomize build ${unit.dir}`;
  for (const chunk of chunksOf(unit, text, opts.sourceFile, opts.templateText)) {
    // A packed subchart's template is no file of the commit: problems are at its archive, naming the template in it.
    const labelAt = (line: number) =>
      chunk.inArchive ? `${toolLabel} (${chunk.inArchive}:${line + chunk.firstLine - 1} in ${chunk.file})` : toolLabel;
    const { documents, problems } = parseDocuments(chunk.file, new TextEncoder().encode(chunk.text));
    // Kustomize's output names no file in its text: each object's origin annotation (asked for when the unit ran)
    // does, and what is found in an object is reported at that file, at the line the run placed the object at there
    // (kustomizePlaces.ts), or at the kustomization.
    const origins =
      unit.tool === 'helm'
        ? []
        : documents.map((d) => {
            const id = outputObjectId(d.value);
            const file =
              takeOrigin(d.value, unit.dir, opts.keepOrigins === true) ?? recordedOrigin(d.value) ?? unit.marker;
            const place = id === undefined ? undefined : opts.places?.[id];
            return { line: d.source.line, file, place: place?.file === file ? place : undefined };
          });
    const parsed = classifyDocuments(chunk.file, documents, problems);
    const at = (line: number) => {
      if (chunk.inArchive) return { file: chunk.file, line: 1, column: 1 };
      if (unit.tool === 'helm') return { file: chunk.file, line: line + chunk.firstLine - 1 };
      const doc = origins.filter((o) => o.line <= line).at(-1);
      return doc?.place ?? { file: doc?.file ?? unit.marker, line: 1, column: 1 };
    };
    for (const p of parsed.problems)
      out.problems.push({
        ...p,
        ...(p.file === chunk.file ? at(p.line) : {}),
        message: `${labelAt(p.line)} output: ${p.message}`,
      });
    const karmada =
      parsed.propagationPolicies.length +
      parsed.overridePolicies.length +
      parsed.clusterTaintPolicies.length +
      parsed.clusters.length +
      parsed.rebalancers.length +
      parsed.interpreterCustomizations.length;
    if (karmada > 0 || parsed.broken.some((r) => isKarmadaRef(r)))
      out.problems.push({
        ...at(1),
        column: 1,
        code: 'INVALID_VALUE',
        severity: 'error',
        message: `${labelAt(1)} output holds Karmada policies or clusters; a unit outputs resource templates only`,
        fix: "commit policies and clusters as plain YAML files outside the unit's folder",
      });
    for (const t of parsed.templates) {
      const meta = (t.manifest.metadata ?? {}) as {
        labels?: Record<string, unknown>;
        annotations?: Record<string, unknown>;
      };
      const reserved = [...Object.keys(meta.labels ?? {}), ...Object.keys(meta.annotations ?? {})].filter(
        isReservedKey,
      );
      const origin = { ...t.source, ...at(t.source.line) };
      if (reserved.length > 0) {
        out.problems.push({
          ...origin,
          code: 'INVALID_VALUE',
          severity: 'error',
          message: `${labelAt(t.source.line)} output: ${t.ref.kind} ${t.ref.name} sets ${reserved.join(', ')}, which Flotilla and the binding controller write`,
          fix: "remove those labels and annotations from the unit's templates",
        });
        continue;
      }
      // A hook no successful sync runs (delete, rollback, test, SyncFail, Skip) is left out, and said.
      const hook = hookDisposition(t.manifest);
      if (hook.kind === 'skipped') {
        out.problems.push(skippedHookProblem(origin, labelAt(t.source.line), t.ref, hook.hook));
        continue;
      }
      // As `helm install --namespace` does: an object that names no namespace is the release's.
      const ref =
        unit.tool === 'helm' && t.ref.namespace === undefined && unit.namespace
          ? { ...t.ref, namespace: unit.namespace }
          : t.ref;
      out.templates.push({
        ...t,
        ref,
        source: { file: unit.marker, line: 1, column: 1 },
        origin,
        ...(chunk.inArchive
          ? { originInArchive: chunk.inArchive, originArchiveLine: t.source.line + chunk.firstLine - 1 }
          : {}),
      });
    }
  }
  if (out.problems.some((p) => p.severity === 'error')) {
    out.unreadable = true;
    out.templates = [];
  }
  return out;
}

function isKarmadaRef(ref: ObjectRef): boolean {
  return [POLICY_API_VERSION, CLUSTER_API_VERSION].some((v) => groupOf(v) === groupOf(ref.apiVersion));
}

/**
 * The output split at Helm's `# Source: <chart>/<path>` comments, each part named by its file in the repository
 * (the chart's name replaced by the unit's folder, a subchart's by its folder, a packed subchart's by its archive and
 * the template in it); Kustomize's output is one part, parsed under a name of the
 * kustomization's folder that no YAML check treats as a chart or kustomization file (its problems are then reported
 * at each object's origin). A Helm part's lines count from its template's text when `templateText` gives it and each
 * document can be matched to its section there (templateSections.ts): helm prints a template's documents sorted by
 * kind and its hooks last, not in the file's order. Otherwise they count from the template's rendering: the first
 * line after `# Source:` is line 1 of the template's first document, and a template's later documents follow its
 * earlier ones and their `---`. Either way a line points into the template file exactly where the template renders
 * line for line, as most manifests do.
 */
function chunksOf(
  unit: UnitOrigin,
  text: string,
  sourceFile: (inChart: string) => ChartPlace = (inChart) => ({ file: `${unit.dir}/${inChart}` }),
  templateText: (place: ChartPlace) => string | undefined = () => undefined,
): { file: string; inArchive?: string; text: string; firstLine: number }[] {
  if (unit.tool !== 'helm') return [{ file: `${unit.dir}/kustomize build output`, text, firstLine: 1 }];
  const lines = text.split('\n');
  const chunks: { file: string; inArchive?: string; text: string; firstLine: number }[] = [];
  // Per template file: its place, and its chunks with the line after their `# Source:` (their document's first).
  const templates = new Map<string, { place: ChartPlace; own: { chunk: number; body: number; doc: string[] }[] }>();
  // Per template file: the lines its documents before this one took, with their separators.
  const rendered = new Map<string, number>();
  let start = 0;
  const flush = (end: number) => {
    const body = lines.slice(start, end);
    if (body.some((l) => l.trim() !== '' && l.trim() !== '---' && !l.startsWith('#'))) {
      const header = body.findIndex((l) => /^# Source: (.+)$/.test(l));
      const source = header < 0 ? undefined : /^# Source: (.+)$/.exec(body[header]!)![1]!;
      // A template can write a `# Source:` line of its own: one that climbs out of the chart names no file of it.
      const inChart = source?.includes('/') ? source.slice(source.indexOf('/') + 1) : undefined;
      const own = inChart !== undefined && !inChart.split('/').some((s) => s === '..' || s === '.' || s === '');
      const place = own ? sourceFile(inChart) : { file: `${unit.dir}/helm template output` };
      const template = place.inArchive === undefined ? place.file : `${place.file}:${place.inArchive}`;
      const before = rendered.get(template) ?? 0;
      let last = body.length;
      while (last > header + 1 && body[last - 1]!.trim() === '') last--;
      rendered.set(template, before + (last - header - 1) + 1);
      if (own) {
        const t = templates.get(template) ?? { place, own: [] };
        t.own.push({ chunk: chunks.length, body: header + 1, doc: body.slice(header + 1, last) });
        templates.set(template, t);
      }
      chunks.push({ ...place, text: `${body.join('\n')}\n`, firstLine: before - header });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---' && i > start) {
      flush(i);
      start = i;
    }
  }
  flush(lines.length);
  for (const { place, own } of templates.values()) {
    const source = templateText(place);
    const placed =
      source === undefined
        ? undefined
        : placeRenderedDocuments(
            source,
            own.map((o) => renderedHead(o.doc)),
          );
    if (placed) for (const [i, o] of own.entries()) chunks[o.chunk]!.firstLine = placed[i]! - o.body;
  }
  return chunks;
}

/** What helm's sorter reads of a rendered document (releaseutil.SimpleHead); a document that does not parse, nothing. */
function renderedHead(doc: readonly string[]): RenderedHead {
  const firstLine = doc[0] ?? '';
  let value: unknown;
  try {
    value = parse(doc.join('\n'), GO_YAML_PARSE_OPTIONS);
  } catch {
    return { hook: false, firstLine };
  }
  const head = (value ?? {}) as { kind?: unknown; apiVersion?: unknown; metadata?: unknown };
  const meta = (typeof head.metadata === 'object' && head.metadata !== null ? head.metadata : {}) as {
    name?: unknown;
    annotations?: unknown;
  };
  const annotations = typeof meta.annotations === 'object' && meta.annotations !== null ? meta.annotations : {};
  return {
    ...(typeof head.kind === 'string' ? { kind: head.kind } : {}),
    ...(typeof head.apiVersion === 'string' ? { apiVersion: head.apiVersion } : {}),
    ...(typeof meta.name === 'string' ? { name: meta.name } : {}),
    hook: Object.hasOwn(annotations, 'helm.sh/hook'),
    firstLine,
  };
}
