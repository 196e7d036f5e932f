// fieldOverrider: JSON-patches a document embedded as a string in the manifest (e.g. a ConfigMap data key).
import { parseAllDocuments } from 'yaml';
import { documentValue } from '../yaml/documentValue.ts';
import { maxNesting } from '../yaml/maxNesting.ts';
import { GO_YAML_PARSE_OPTIONS } from '../yaml/goYamlSchema.ts';
import { goYamlReaderRefuses, jsonToGoYaml } from '../yaml/goYamlV2.ts';
import type { FieldOverrider } from '../api/policy.ts';
import {
  applyJsonPatch,
  getByJsonPointer,
  parseJsonPointer,
  pointerArrayIndex,
  type JsonPatchOperation,
} from '../patches/jsonPatch.ts';
import { isManifest, type Manifest, type OverrideStep } from './overrideStep.ts';
import { setDataKey } from '../yaml/setDataKey.ts';
import { applyJsonPatchToText, documentRefusal, rootValueRefusal } from '../patches/patchJsonText.ts';

/**
 * Each overrider in turn: read the string at fieldPath, parse it as YAML when `yaml` operations are given, else as
 * JSON, apply the sub-patches, write the string back. JSON comes back compact with Go's HTML escaping; YAML comes back
 * byte for byte as Karmada re-encodes it with go-yaml v2 (keys in Go's order, long strings folded at 80 columns, list
 * items not indented, comments dropped). An empty JSON string is left as it is.
 */
export function applyFieldOverriders(
  manifest: Manifest,
  overriders: readonly FieldOverrider[] | undefined,
): OverrideStep {
  let current = manifest;
  for (const [index, overrider] of (overriders ?? []).entries()) {
    const name = `fieldOverrider[${index}]`;
    const result = overrideField(current, overrider);
    if (!result.ok)
      return { ok: false, overrider: result.part ? `${name}.${result.part}` : name, message: result.message };
    current = result.manifest;
  }
  return { ok: true, manifest: current };
}

type FieldResult = { ok: true; manifest: Manifest } | { ok: false; part?: string; message: string };

function overrideField(manifest: Manifest, overrider: FieldOverrider): FieldResult {
  const yamlOps = overrider.yaml ?? [];
  const jsonOps = overrider.json ?? [];
  const tokens = parseJsonPointer(overrider.fieldPath);
  if (!tokens || tokens.length === 0)
    return { ok: false, message: `fieldPath "${overrider.fieldPath}" must be a JSON pointer to a field` };
  const found = getByJsonPointer(manifest, overrider.fieldPath);
  if (!found.found)
    return { ok: false, message: `Get value by overrider's path(${overrider.fieldPath}) err: ${found.message}` };
  if (typeof found.value !== 'string')
    return { ok: false, message: `Get object's value by overrider's path(${overrider.fieldPath}) is not string` };

  // Validation refuses both or neither in an override rule; in the deprecated spec.overriders, which Karmada's webhook
  // does not check, applyFieldOverriders takes the YAML operations first and, with none at all, writes "".
  if (yamlOps.length === 0 && jsonOps.length === 0) return { ok: true, manifest: setAt(manifest, tokens, '') };
  const isYaml = yamlOps.length > 0;
  const operations: JsonPatchOperation[] = (isYaml ? yamlOps : jsonOps).map((o) => ({
    op: o.operator,
    path: o.subPath,
    value: o.value,
  }));
  const depth = maxNesting(found.value);
  if (depth > MAX_EMBEDDED_DEPTH)
    return {
      ok: false,
      message: `the string at ${overrider.fieldPath} nests ${depth} levels deep, over Flotilla's limit of ${MAX_EMBEDDED_DEPTH}`,
    };
  let patched: TextResult;
  try {
    patched = isYaml ? patchYaml(found.value, operations) : patchJson(found.value, operations);
  } catch (err) {
    // The string comes from a pull request: whatever it makes a reader or writer throw fails this override only.
    return { ok: false, message: `cannot rewrite the string at ${overrider.fieldPath}: ${(err as Error).message}` };
  }
  if (!patched.ok) return { ok: false, part: patched.part, message: patched.message };
  return { ok: true, manifest: setAt(manifest, tokens, patched.text) };
}

type TextResult = { ok: true; text: string } | { ok: false; part?: string; message: string };

/**
 * Bounds on a string a fieldOverrider rewrites, which a pull request controls. Depth: the readers and writers recurse,
 * and a fixed limit (far below where a JavaScript stack ends) answers the same on every run; go-yaml allows 10,000, no
 * real config comes near 256. Aliased bytes: anchors may copy at most what a member takes in one object (a ConfigMap
 * holds 1 MiB), so a few kilobytes of aliases cannot expand into gigabytes.
 */
const MAX_EMBEDDED_DEPTH = 256;
const MAX_ALIASED_BYTES = 1024 * 1024;

function patchJson(text: string, operations: readonly JsonPatchOperation[]): TextResult {
  if (text === '') return { ok: true, text };
  const result = applyJsonPatchToText(text, operations);
  if (!result.ok)
    return result.index === undefined
      ? { ok: false, message: result.message }
      : { ok: false, part: `json[${result.index}]`, message: result.message };
  return { ok: true, text: result.text };
}

function patchYaml(text: string, operations: readonly JsonPatchOperation[]): TextResult {
  // Like Go's yaml.Unmarshal, only the first document of a multi-document string is read, and a key the document
  // repeats keeps its last value. Karmada converts with sigs.k8s.io/yaml over go-yaml v2: kubectl's reading.
  if (goYamlReaderRefuses(text))
    return { ok: false, message: 'Failed to convert yaml to json: yaml: control characters are not allowed' };
  const parsed = parseAllDocuments(text, { ...GO_YAML_PARSE_OPTIONS, uniqueKeys: false });
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  const error = first?.errors[0];
  if (error) return { ok: false, message: `Failed to convert yaml to json: ${error.message}` };
  let value: unknown;
  try {
    // sigs.k8s.io/yaml keeps an int64 or uint64 exact both ways: so does this round trip (a 19-digit id in the file).
    value = first ? documentValue(first, 1000, undefined, MAX_ALIASED_BYTES, true) : null;
  } catch (err) {
    return { ok: false, message: `Failed to convert yaml to json: ${(err as Error).message}` };
  }
  // Aliases nest a value deeper than its text: the document as read is held to the same depth.
  if (deeperThan(value, MAX_EMBEDDED_DEPTH))
    return {
      ok: false,
      message: `its aliases nest the document over Flotilla's limit of ${MAX_EMBEDDED_DEPTH} levels`,
    };
  // sigs.k8s.io/yaml hands evanphx compact JSON, whose first character is "[" exactly when the document is a list.
  const refused = documentRefusal(value, Array.isArray(value));
  if (refused) return { ok: false, message: refused };
  const refusedAt = operations.findIndex((o) => rootValueRefusal(o) !== undefined);
  const result = applyJsonPatch(value, refusedAt < 0 ? operations : operations.slice(0, refusedAt));
  if (!result.ok) return { ok: false, part: `yaml[${result.index}]`, message: result.message };
  if (refusedAt >= 0)
    return { ok: false, part: `yaml[${refusedAt}]`, message: rootValueRefusal(operations[refusedAt]!) as string };
  const written = jsonToGoYaml(result.document);
  return written.ok ? written : { ok: false, message: `Failed to convert json to yaml: ${written.message}` };
}

/** A copy of the manifest with the string written at the (already read, so existing) path. */
function setAt(manifest: Manifest, tokens: readonly string[], text: string): Manifest {
  const copy = structuredClone(manifest);
  let parent: unknown = copy;
  for (const token of tokens.slice(0, -1)) {
    parent = Array.isArray(parent)
      ? parent[pointerArrayIndex(token, parent.length) as number]
      : (parent as Manifest)[token];
  }
  const last = tokens[tokens.length - 1] as string;
  if (Array.isArray(parent)) parent[pointerArrayIndex(last, parent.length) as number] = text;
  else if (isManifest(parent)) setDataKey(parent, last, text);
  return copy;
}

/**
 * Whether a parsed value nests maps and lists more than `limit` deep, without recursion. An alias may be read as one
 * object shared by many places: each object's height below it is worked out once and counts wherever it appears.
 */
function deeperThan(value: unknown, limit: number): boolean {
  const height = new Map<object, number>();
  const stack: { node: object; expanded: boolean }[] = [];
  if (value !== null && typeof value === 'object') stack.push({ node: value, expanded: false });
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const children = Object.values(top.node).filter((c): c is object => c !== null && typeof c === 'object');
    if (!top.expanded) {
      top.expanded = true;
      if (stack.length > limit) return true;
      for (const child of children) if (!height.has(child)) stack.push({ node: child, expanded: false });
      continue;
    }
    stack.pop();
    const below = children.reduce((max, child) => Math.max(max, height.get(child) ?? 0), 0);
    if (below + 1 > limit) return true;
    height.set(top.node, below + 1);
  }
  return false;
}
