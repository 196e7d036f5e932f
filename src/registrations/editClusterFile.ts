import { formatTime } from '../time/formatTime.ts';
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type ToStringOptions } from 'yaml';
import { documentValue } from '../yaml/documentValue.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { Taint } from '../api/cluster.ts';
import type { TaintChange } from './parseTaintArgs.ts';
import { RegistrationError } from './RegistrationError.ts';

/** Karmada's cordon taint (karmadactl cordon; pkg/util/cluster constants). */
export const UNSCHEDULABLE_TAINT_KEY = 'cluster.karmada.io/unschedulable';

/** What an operation does to one Cluster document. `remove` drops the document (unjoin). */
export type ClusterEdit =
  | { type: 'taint'; changes: readonly TaintChange[]; overwrite: boolean; now: Date }
  | { type: 'cordon' }
  | { type: 'uncordon' }
  | { type: 'remove' };

export interface EditedFile {
  /** The new file text; null when the file held only this cluster and goes away. */
  text: string | null;
  /** What changed, one line each ("added taint k=v:NoSchedule"); empty when nothing had to change. */
  summary: string[];
}

/**
 * Applies one edit to the Cluster `name` in a YAML file, keeping every comment and the other documents.
 * Pure. The yaml Document API re-prints the file; flow collections and sequence indentation are printed
 * the way the file wrote them, so a one-taint change shows as a small diff.
 */
export function editClusterFile(file: string, text: string, name: string, edit: ClusterEdit): EditedFile {
  const lines = new LineCounter();
  // kubectl's reading of the file, and its quoting when printed again: a taint value `yes` is written "yes".
  const docs = parseAllDocuments(text, { ...GO_YAML_STRINGIFY_OPTIONS, merge: true, lineCounter: lines });
  if (!Array.isArray(docs)) return notFound(file, name);
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const { line, col } = lines.linePos(error.pos[0]);
      throw new RegistrationError(
        'BAD_CLUSTER_FILE',
        `${file}:${line}:${col}: ${error.message.split('\n')[0]}; fix: correct the YAML there first (flotilla validate)`,
      );
    }
  }
  const index = docs.findIndex((d) => isClusterNamed(d, name));
  if (index < 0) return notFound(file, name);
  const doc = docs[index]!;
  const options = printOptions(text);

  if (edit.type === 'remove') {
    const rest = docs.filter((_, i) => i !== index);
    return {
      text: rest.length === 0 ? null : rest.map((d) => d.toString(options)).join(''),
      summary: [`removed Cluster ${name} from ${file}`],
    };
  }
  const current = readTaints(doc, file, lines);
  const summary =
    edit.type === 'taint'
      ? applyTaintChanges(doc, current, edit.changes, edit.overwrite, edit.now, name)
      : cordon(doc, current, edit.type === 'cordon');
  if (summary.length === 0) return { text, summary };
  return { text: docs.map((d) => d.toString(options)).join(''), summary };
}

function isClusterNamed(doc: Document, name: string): boolean {
  let js: { kind?: unknown; metadata?: { name?: unknown } } | null;
  try {
    js = documentValue(doc as Document.Parsed, 1000) as typeof js;
  } catch {
    return false; // not a document kubectl could read: validate reports it
  }
  return js?.kind === 'Cluster' && js.metadata?.name === name;
}

function notFound(file: string, name: string): never {
  throw new RegistrationError('CLUSTER_NOT_FOUND', `${file} holds no Cluster named ${name}`);
}

/**
 * karmadactl cordon and uncordon, idempotent: cordon appends the unschedulable taint after the cluster's others;
 * uncordon moves the last taint into its place (cordonHelper.patchOrReplace), so the order the scheduler reads a
 * cluster's taints in, and names the first untolerated one by, is karmadactl's.
 */
function cordon(doc: Document, current: Taint[], on: boolean): string[] {
  const at = current.findIndex((t) => t.key === UNSCHEDULABLE_TAINT_KEY && t.effect === 'NoSchedule');
  const seq = doc.getIn(['spec', 'taints'], true);
  if (on) {
    if (at >= 0) return [];
    const taint: Taint = { key: UNSCHEDULABLE_TAINT_KEY, effect: 'NoSchedule' };
    if (isSeq(seq)) seq.items.push(doc.createNode(taint));
    else doc.setIn(['spec', 'taints'], doc.createNode([taint]));
    return [`added taint ${formatTaint(taint)}`];
  }
  if (at < 0 || !isSeq(seq)) return [];
  const removed = current[at]!;
  const last = seq.items.length - 1;
  if (at !== last) seq.items[at] = seq.items[last]!;
  seq.items.splice(last, 1);
  dropEmptyTaints(doc);
  return [`removed taint ${formatTaint(removed)}`];
}

function readTaints(doc: Document, file: string, lines: LineCounter): Taint[] {
  const node = doc.getIn(['spec', 'taints'], true);
  if (node === undefined || (isScalar(node) && node.value === null)) return [];
  if (!isSeq(node)) {
    const at = lines.linePos((node as { range?: [number] }).range?.[0] ?? 0);
    throw new RegistrationError(
      'BAD_CLUSTER_FILE',
      `${file}:${at.line}:${at.col}: spec.taints is not a list; fix: make it a list of {key, value, effect}`,
    );
  }
  return (node.toJSON() as Taint[] | null) ?? [];
}

/** Kubernetes' own rules (kubectl taint): one taint per key and effect; adding an existing one needs --overwrite. */
function applyTaintChanges(
  doc: Document,
  current: Taint[],
  changes: readonly TaintChange[],
  overwrite: boolean,
  now: Date,
  name: string,
): string[] {
  const summary: string[] = [];
  let seq = doc.getIn(['spec', 'taints'], true);
  // karmadactl's reorganizeTaints: the taints added, in the command's order, come first, then those kept.
  let added = 0;
  const insert = (taint: Taint) => {
    current.splice(added, 0, taint);
    if (isSeq(seq)) seq.items.splice(added, 0, doc.createNode(taint));
    else {
      doc.setIn(['spec', 'taints'], doc.createNode([taint]));
      seq = doc.getIn(['spec', 'taints'], true);
    }
    added++;
  };
  for (const change of changes) {
    const matches = (t: Taint) => t.key === change.key && (change.effect === undefined || t.effect === change.effect);
    if (change.action === 'remove') {
      if (!current.some(matches)) {
        throw new RegistrationError(
          'TAINT_NOT_FOUND',
          `cluster ${name} has no taint ${change.key}${change.effect ? `:${change.effect}` : ''}; fix: see its taints with flotilla describe cluster ${name}`,
        );
      }
      for (let i = current.length - 1; i >= 0; i--) {
        if (!matches(current[i]!)) continue;
        summary.push(`removed taint ${formatTaint(current[i]!)}`);
        current.splice(i, 1);
        if (isSeq(seq)) seq.items.splice(i, 1);
      }
      continue;
    }
    const taint: Taint = { key: change.key, ...(change.value ? { value: change.value } : {}), effect: change.effect };
    // NoExecute taints carry the time they were added, as Karmada's Cluster admission stamps it.
    if (change.effect === 'NoExecute') taint.timeAdded = formatTime(now);
    const at = current.findIndex(matches);
    if (at >= 0) {
      if (!overwrite) {
        throw new RegistrationError(
          'TAINT_EXISTS',
          `cluster ${name} already has taint ${formatTaint(current[at]!)}; fix: pass --overwrite to replace its value, or remove it first with ${change.key}:${change.effect}-`,
        );
      }
      const old = current[at]!;
      // karmadactl writes the taint as given, without the old one's timeAdded: the Cluster admission stamps a NoExecute
      // taint anew, so its tolerationSeconds count again from now.
      if (at === added && (old.value ?? '') === (taint.value ?? '') && old.timeAdded === taint.timeAdded) {
        added++;
        continue;
      }
      summary.push(
        (old.value ?? '') !== (taint.value ?? '')
          ? `changed taint ${formatTaint(old)} to ${formatTaint(taint)}`
          : `re-added taint ${formatTaint(taint)}${taint.timeAdded ? ` (timeAdded ${taint.timeAdded})` : ''}`,
      );
      current.splice(at, 1);
      if (isSeq(seq)) seq.items.splice(at, 1);
      insert(taint);
      continue;
    }
    summary.push(`added taint ${formatTaint(taint)}`);
    insert(taint);
  }
  dropEmptyTaints(doc);
  return summary;
}

/** A list emptied by removals goes, and so does a spec left empty by it. */
function dropEmptyTaints(doc: Document): void {
  const seq = doc.getIn(['spec', 'taints'], true);
  if (!isSeq(seq) || seq.items.length > 0) return;
  doc.deleteIn(['spec', 'taints']);
  const spec = doc.getIn(['spec'], true);
  if (isMap(spec) && spec.items.length === 0) doc.deleteIn(['spec']);
}

export function formatTaint(t: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** Print flow collections without inner padding and sequences at the file's own indentation. */
function printOptions(text: string): ToStringOptions {
  // A `- ` line at the same indentation as the `key:` line above it: the file does not indent sequences.
  const flush = /^( *)[^\s#-][^\n]*:[ \t]*\n\1- /m.test(text);
  const indented = /^( *)[^\s#-][^\n]*:[ \t]*\n\1 +- /m.test(text);
  return { flowCollectionPadding: false, indentSeq: !(flush && !indented), lineWidth: 0 };
}
