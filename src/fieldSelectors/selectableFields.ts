import { FieldSelectorError, type FieldRequirement } from './parseFieldSelector.ts';

// A field selector passes two layers in kube-apiserver. The kind's field label conversion
// (AddFieldLabelConversionFunc in pkg/apis/<group>/<version>/conversion.go, else
// runtime.DefaultMetaV1FieldSelectorConversion; a custom resource's crConverter) accepts, renames or refuses
// each label; the registry strategy's ToSelectableFields projects the object into the set the selector is
// matched against. A label accepted but never projected reads "" (pods' status.podIPs), and numbers and
// booleans are projected even when the object leaves them out. The member emulator's lists and `flotilla get
// --field-selector` both read this one table, so Git and a member select the same objects.

/** What selecting a resource's objects by field depends on. */
export interface SelectableResource {
  group: string;
  plural: string;
  namespaced: boolean;
  /** A custom resource: its version's selectableFields, as their jsonPaths (`.spec.color`). */
  customResource?: { selectableFields: readonly string[] };
}

/** An object of any kind, read by path: every step may be missing. */
interface Fields {
  readonly [key: string]: Fields | undefined;
}
type SelectableObject = Fields | undefined;

type Projection = (object: SelectableObject) => string;

interface Conversion {
  /** The labels taken, each to the label it is matched as. */
  labels: Record<string, string>;
  refusal: (label: string) => string;
  /** Beyond metadata.name and metadata.namespace. */
  fields: Record<string, Projection>;
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const at = (path: string): Projection => {
  const steps = path.split('.');
  return (object) => text(steps.reduce<SelectableObject>((node, step) => node?.[step], object));
};
const withDefault = (path: string, zero: string): Projection => {
  const project = at(path);
  return (object) => project(object) || zero;
};

const fieldLabelNotSupported = (label: string) => `field label not supported: ${label}`;

const same = (...labels: string[]): Record<string, string> => Object.fromEntries(labels.map((l) => [l, l]));

const CONVERSIONS: Record<string, Conversion> = {
  '/pods': {
    labels: {
      ...same(
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'spec.hostNetwork',
        'status.phase',
        'status.podIP',
        'status.podIPs',
        'status.nominatedNodeName',
      ),
      // v1 clients of old sent spec.host.
      'spec.host': 'spec.nodeName',
    },
    refusal: fieldLabelNotSupported,
    fields: {
      'spec.nodeName': at('spec.nodeName'),
      'spec.restartPolicy': at('spec.restartPolicy'),
      'spec.schedulerName': at('spec.schedulerName'),
      'spec.serviceAccountName': at('spec.serviceAccountName'),
      'spec.hostNetwork': withDefault('spec.hostNetwork', 'false'),
      'status.phase': at('status.phase'),
      'status.podIP': (pod) => text(pod?.status?.podIPs?.[0]?.ip ?? pod?.status?.podIP),
      'status.nominatedNodeName': at('status.nominatedNodeName'),
    },
  },
  '/nodes': {
    labels: same('metadata.name', 'spec.unschedulable'),
    refusal: fieldLabelNotSupported,
    fields: { 'spec.unschedulable': withDefault('spec.unschedulable', 'false') },
  },
  '/replicationcontrollers': {
    labels: same('metadata.name', 'metadata.namespace', 'status.replicas'),
    refusal: fieldLabelNotSupported,
    fields: { 'status.replicas': withDefault('status.replicas', '0') },
  },
  '/events': {
    labels: same(
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
      'metadata.namespace',
      'metadata.name',
    ),
    refusal: fieldLabelNotSupported,
    fields: {
      ...Object.fromEntries(
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [
          `involvedObject.${f}`,
          at(`involvedObject.${f}`),
        ]),
      ),
      reason: at('reason'),
      reportingComponent: at('reportingComponent'),
      source: (event) => at('source.component')(event) || at('reportingComponent')(event),
      type: at('type'),
    },
  },
  '/namespaces': {
    labels: same('status.phase', 'metadata.name'),
    refusal: fieldLabelNotSupported,
    fields: { 'status.phase': at('status.phase') },
  },
  '/secrets': {
    labels: same('type', 'metadata.namespace', 'metadata.name'),
    refusal: fieldLabelNotSupported,
    fields: { type: at('type') },
  },
  '/services': {
    labels: same('metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'),
    refusal: fieldLabelNotSupported,
    fields: { 'spec.clusterIP': at('spec.clusterIP'), 'spec.type': at('spec.type') },
  },
  'batch/jobs': {
    labels: same('metadata.name', 'metadata.namespace', 'status.successful'),
    refusal: (label) => `field label ${JSON.stringify(label)} not supported for Job`,
    fields: { 'status.successful': withDefault('status.succeeded', '0') },
  },
};

const METADATA_ONLY: Conversion = {
  labels: same('metadata.name', 'metadata.namespace'),
  refusal: (label) =>
    `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
  fields: {},
};

/**
 * A custom resource version's conversion: metadata.namespace only when namespaced, and its selectableFields, each
 * projected as fmt.Sprint prints the value its jsonPath finds (customResourceStrategy.selectableFields).
 */
function customResourceConversion(rt: SelectableResource, selectableFields: readonly string[]): Conversion {
  const selectable = selectableFields.map((jsonPath) => jsonPath.replace(/^\./, ''));
  return {
    labels: same('metadata.name', ...(rt.namespaced ? ['metadata.namespace'] : []), ...selectable),
    refusal: fieldLabelNotSupported,
    fields: Object.fromEntries(selectable.map((label) => [label, at(label)])),
  };
}

function conversionOf(rt: SelectableResource): Conversion {
  if (rt.customResource) return customResourceConversion(rt, rt.customResource.selectableFields);
  return CONVERSIONS[`${rt.group}/${rt.plural}`] ?? METADATA_ONLY;
}

/**
 * Runs each requirement through the kind's field label conversion, in the parsed order: a label it does not take is
 * the API server's 400 in the kind's words (FieldSelectorError); one it renames is matched as the new label. Pure.
 */
export function convertFieldSelector(
  rt: SelectableResource,
  requirements: readonly FieldRequirement[],
): FieldRequirement[] {
  const { labels, refusal } = conversionOf(rt);
  return requirements.map((r) => {
    const label = Object.hasOwn(labels, r.path) ? labels[r.path] : undefined;
    if (label === undefined) throw new FieldSelectorError(refusal(r.path));
    return { ...r, path: label };
  });
}

/**
 * The fields an object of `rt` is selected by (its strategy's ToSelectableFields): the kind's projections are looked
 * up once, for every object a list or watch then matches.
 */
export function selectableFieldsOf(rt: SelectableResource): (object: unknown) => Record<string, string> {
  const projections = Object.entries(conversionOf(rt).fields);
  return (value) => {
    const object = value as SelectableObject;
    const set: Record<string, string> = { 'metadata.name': text(object?.metadata?.name) };
    if (rt.namespaced) set['metadata.namespace'] = text(object?.metadata?.namespace);
    for (const [label, project] of projections) set[label] = project(object);
    return set;
  };
}

/** Whether a field set satisfies converted requirements; a label the set lacks reads "" (fields.Set.Get). */
export function matchesFieldSet(requirements: readonly FieldRequirement[], set: Record<string, string>): boolean {
  return requirements.every((r) => {
    const actual = Object.hasOwn(set, r.path) ? set[r.path] : '';
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}
