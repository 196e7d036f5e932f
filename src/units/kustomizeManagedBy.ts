import { isMap, isScalar, parseAllDocuments } from 'yaml';

/** The label `buildMetadata: [managedByLabel]` sets on every object (api/konfig/general.go ManagedbyLabelKey). */
const MANAGED_BY = 'app.kubernetes.io/managed-by';

/**
 * What kustomize writes for its version when it was built without the release's ldflags (api/provenance/provenance.go
 * developmentVersion): kubectl's built-in kustomize is such a build, as is `go install`.
 */
const DEVELOPMENT_VALUE = 'kustomize-(devel)';

/**
 * A build's output with the `managedByLabel` value a release binary of `version` writes (pure). kustomize sets
 * `app.kubernetes.io/managed-by: kustomize-<provenance.Semver()>` after every transformer (api/krusty/kustomizer.go);
 * a release binary (what Argo CD runs) is built with `provenance.version=kustomize/v5.5.0` and writes
 * `kustomize-v5.5.0`, while kubectl's built-in kustomize of that same version writes `kustomize-(devel)`, which is
 * no valid label value: every object would be refused by the API server. The label is the last thing set, so the
 * value is its only difference between the two builds: only that value, in each object's metadata.labels, is
 * rewritten, in place (kustomize sorts keys, and the new value sorts nothing). `version` is `v5.5.0`; any other
 * form leaves the output as it is.
 */
export function withReleaseManagedBy(output: string, version: string): string {
  if (!output.includes(DEVELOPMENT_VALUE) || !/^v\d+\.\d+\.\d+$/.test(version)) return output;
  const spans: [number, number][] = [];
  for (const doc of parseAllDocuments(output)) {
    if (doc.errors.length > 0) return output;
    const labels = doc.getIn(['metadata', 'labels'], true);
    if (!isMap(labels)) continue;
    const value = labels.get(MANAGED_BY, true);
    if (isScalar(value) && value.value === DEVELOPMENT_VALUE && value.range && value.type === 'PLAIN')
      spans.push([value.range[0], value.range[1]]);
  }
  let out = output;
  for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}kustomize-${version}${out.slice(end)}`;
  return out;
}
