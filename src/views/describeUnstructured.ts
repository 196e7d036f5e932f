// kubectl's generic describer (k8s.io/kubectl/pkg/describe: genericDescriber, printUnstructuredContent,
// smartLabelFor), the one `kubectl describe` uses for custom resources such as Karmada's policies: Name, Namespace,
// Labels, Annotations, then every other field sorted by name, nested fields indented two spaces a level.
import { alignTabs } from '../text/alignTabs.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Fields the header already shows, or that say nothing about the object (as kubectl skips them). */
const SKIPPED = new Set([
  '.metadata.managedFields',
  '.metadata.name',
  '.metadata.namespace',
  '.metadata.labels',
  '.metadata.annotations',
]);
const ACRONYMS = new Set(['API', 'URL', 'UID', 'OSB', 'GUID']);

/**
 * The header and fields of `kubectl describe` for a resource without a describer of its own, then its Events. Values
 * are printed as they are (the caller makes the whole text terminal-safe). Pure.
 */
export function describeUnstructured(object: Obj, events: readonly string[] = []): string {
  const metadata = (isObj(object.metadata) ? object.metadata : {}) as {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  const out: string[] = [`Name:\t${metadata.name ?? ''}`, `Namespace:\t${metadata.namespace ?? ''}`];
  out.push(...multiline('Labels', metadata.labels, (k, v) => `${k}=${v}`));
  out.push(...annotationLines(metadata.annotations));
  printContent(out, 0, object, '');
  // After the fields, in the same tabwriter: `Events:\t<none>` lines up with them, as kubectl prints it.
  out.push(...events);
  return `${alignTabs(out.join('\n'))}\n`;
}

/** kubectl's printLabelsMultiline/printAnnotationsMultiline: sorted keys, one per line, <none> when empty. */
function multiline(
  title: string,
  map: Record<string, string> | undefined,
  show: (k: string, v: string) => string,
): string[] {
  const keys = Object.keys(map ?? {}).sort();
  if (keys.length === 0) return [`${title}:\t<none>`];
  return keys.map((k, i) => `${i === 0 ? `${title}:\t` : '\t'}${show(k, map![k]!)}`);
}

/** kubectl's line length for an annotation (maxAnnotationLen): a longer one is printed under its key, cut there. */
const MAX_ANNOTATION_BYTES = 140;
/** kubectl leaves out the annotation kubectl apply keeps the last applied object in (describe's skipAnnotations). */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * kubectl's printAnnotationsMultiline: sorted keys but the last-applied one, `key: value` when it fits; a value longer
 * than the line (key, colon, space and value over 140 bytes) or of several lines goes under its key, each of its lines
 * two spaces in and cut at 138 bytes with `...`.
 */
function annotationLines(annotations: Record<string, string> | undefined): string[] {
  const keys = Object.keys(annotations ?? {})
    .filter((k) => k !== LAST_APPLIED)
    .sort();
  if (keys.length === 0) return ['Annotations:\t<none>'];
  return keys.flatMap((key, i) => {
    const lead = i === 0 ? 'Annotations:\t' : '\t';
    const value = annotations![key]!.replace(/\n$/, '');
    if (bytes(value) + bytes(key) + 2 <= MAX_ANNOTATION_BYTES && !value.includes('\n'))
      return [`${lead}${key}: ${value}`];
    return [`${lead}${key}:`, ...value.split('\n').map((line) => `\t  ${shorten(line, MAX_ANNOTATION_BYTES - 2)}`)];
  });
}

/** Go's shorten: the first `max` bytes and `...` when longer. */
function shorten(s: string, max: number): string {
  const buffer = Buffer.from(s, 'utf8');
  return buffer.length > max ? `${buffer.subarray(0, max).toString('utf8')}...` : s;
}

function printContent(out: string[], level: number, content: Obj, prefix: string): void {
  const pad = '  '.repeat(level);
  for (const field of Object.keys(content).sort()) {
    const value = content[field];
    const path = `${prefix}.${field}`;
    if (SKIPPED.has(path)) continue;
    if (isObj(value)) {
      out.push(`${pad}${smartLabelFor(field)}:`);
      printContent(out, level + 1, value, path);
    } else if (Array.isArray(value)) {
      out.push(`${pad}${smartLabelFor(field)}:`);
      for (const item of value) {
        if (isObj(item)) printContent(out, level + 1, item, path);
        else out.push(`${pad}  ${goValue(item)}`);
      }
    } else out.push(`${pad}${smartLabelFor(field)}:\t${goValue(value)}`);
  }
}

/** Go's %v of a value decoded from JSON: nil is <nil>; a nested list or map prints Go's way, rarely seen here. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isObj(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goValue(v[k])}`)
      .join(' ')}]`;
  return String(v);
}

/**
 * kubectl's smartLabelFor: a field of letters and dashes split as fatih/camelcase splits it, each part title-cased
 * (acronyms upper-cased) and joined with spaces: apiVersion is "API Version"; any other field is shown as it is.
 */
export function smartLabelFor(field: string): string {
  if (!/^[\p{L}-]*$/u.test(field)) return field;
  return camelCaseSplit(field)
    .filter((part) => part !== '_')
    .map((part) =>
      ACRONYMS.has(part.toUpperCase()) ? part.toUpperCase() : part.charAt(0).toUpperCase() + part.slice(1),
    )
    .join(' ');
}

/** fatih/camelcase.Split: runs of one character class, an upper-case run's last letter moved onto a lower-case run. */
function camelCaseSplit(s: string): string[] {
  const kind = (ch: string) => (/\p{Ll}/u.test(ch) ? 1 : /\p{Lu}/u.test(ch) ? 2 : /\p{N}/u.test(ch) ? 3 : 4);
  const runs: string[][] = [];
  let last = 0;
  for (const ch of s) {
    const k = kind(ch);
    if (k === last) runs[runs.length - 1]!.push(ch);
    else runs.push([ch]);
    last = k;
  }
  for (let i = 0; i < runs.length - 1; i++) {
    if (kind(runs[i]![0]!) === 2 && kind(runs[i + 1]![0]!) === 1) {
      runs[i + 1]!.unshift(runs[i]!.pop()!);
    }
  }
  return runs.filter((r) => r.length > 0).map((r) => r.join(''));
}
