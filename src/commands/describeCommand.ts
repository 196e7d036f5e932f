import { parseArgs } from 'node:util';
import { readGoBoolFlags } from './goBoolFlags.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { groupOf, parseRefKey, refKey } from '../api/kinds.ts';
import { takesKind } from '../views/resolveResourceType.ts';
import { readObjectHistory } from '../audits/readObjectHistory.ts';
import { readTemplateUnit } from '../audits/readTemplateUnit.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode } from '../commits/types.ts';
import type { TemplateStatusFile } from '../branches/status/statusFiles.ts';
import { templateStatusPath } from '../branches/status/statusFiles.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { describeCluster } from '../views/describeCluster.ts';
import { federatedQuotaObject, readFederatedQuotas } from '../views/federatedQuotaViews.ts';
import { describeFederatedHpa, readFederatedHpaEvents, readFederatedHpas } from '../views/federatedHpaViews.ts';
import { describeTemplate } from '../views/describeTemplate.ts';
import { describePolicy, readPolicies } from '../views/policyViews.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import { readDocuments, type Fleet } from '../views/readFleet.ts';
import { isSecret } from '../interpreters/isSecret.ts';
import { readClusterViews, readTemplates } from '../views/readListing.ts';
import { withoutSecretStatus } from '../statuses/withoutSecretStatus.ts';
import { secretKeySizes } from '../views/redactSecret.ts';
import { readPathHistory } from '../views/readPathHistory.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import {
  nothingRendered,
  openRequests,
  READ_OPTIONS,
  resourceName,
  selectorRequirements,
  type ReadCommandContext,
} from './getCommand.ts';
import { readListing } from '../views/readListing.ts';
import type { ResourceType } from '../views/resolveResourceType.ts';
import { describeUnstructured } from '../views/describeUnstructured.ts';
import { commitEvents } from '../views/commitEvents.ts';
import { manifestPath } from '../branches/rendered/outputPaths.ts';
import { matchesLabelRequirements } from '../labels/parseLabelSelector.ts';
import { UsageError } from '../errors/UsageError.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { readableBranchRef } from '../commits/readRef.ts';

const USAGE =
  'flotilla describe TYPE[,TYPE...] [NAME_PREFIX... | -l SELECTOR] | TYPE/NAME... [-n NS|-A] [--cluster C] [--show-events=false]  (TYPE: cluster, binding, pp|cpp|op|cop, federatedhpa, federatedresourcequota or a template kind such as deploy)';

/** describe's flags: the read options, kubectl's label selector (--show-events is read before these). */
const DESCRIBE_OPTIONS = { ...READ_OPTIONS, selector: { type: 'string', short: 'l' } } as const;

/**
 * `flotilla describe`: kubectl describe over Git state, for the objects kubectl's words ask for (a type, several, names,
 * TYPE/NAME words, a selector, a name prefix). Templates with their aggregated status, or with --cluster C the
 * member's copy as kubectl's generic describer prints it. Exit 0, or 1 when a named object does not exist.
 */
export async function describeCommand(argv: string[], ctx: ReadCommandContext): Promise<number> {
  const { showEvents, rest } = readShowEvents(argv);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: DESCRIBE_OPTIONS });
  if (values.help) {
    ctx.out(`Usage: ${USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError(`describe needs a resource type: ${USAGE}`);
  const requirements = values.selector === undefined ? undefined : selectorRequirements(values.selector);
  const opened = await openRequests('describe', positionals, requirements !== undefined, values, ctx);
  if (typeof opened === 'number') return opened;
  const { args, fleet, requests } = opened;
  if (requests.some((r) => r.type.type === 'works'))
    throw new UsageError(
      'describe works is not supported; flotilla get works NAME -o yaml shows one, flotilla blame --cluster C <kind>/<name> its origin',
    );
  const unrendered = nothingRendered(fleet, requests, values['rendered-branch']);
  if (unrendered) {
    ctx.err(unrendered);
    return 1;
  }
  const where = {
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
    wide: false,
    now: ctx.now(),
  };
  // kubectl's infos: every object of a listed type (that the selector takes), each named object found, in the order
  // asked; a missing one is the API server's NotFound, said after every description.
  const found: Found[] = [];
  const notFound: string[] = [];
  for (const { type, name } of requests) {
    const listing = await readListing(fleet, type, {
      ...where,
      ...(name !== undefined ? { name } : {}),
      allNamespaces: values['all-namespaces'] ?? false,
    });
    // cli-runtime's builder refuses a name with --all-namespaces for a namespaced type, before anything is described.
    if (name !== undefined && values['all-namespaces'] && listing.headers[0] === 'NAMESPACE')
      throw new UsageError('a resource cannot be retrieved by name across all namespaces');
    const objects = requirements
      ? listing.objects.filter((o) => matchesLabelRequirements(requirements, labelsOf(o)))
      : listing.objects;
    if (name !== undefined && objects.length === 0)
      notFound.push(`Error from server (NotFound): ${resourceName(type)} "${terminalSafe(name)}" not found\n`);
    else found.push(...objects.map((object) => ({ type, object })));
  }
  const describe = async ({ type, object }: Found) => {
    const text = await describeFound(fleet, type, object, { ...where, renderedBranch: values['rendered-branch'] });
    return terminalSafe(showEvents ? text : withoutEvents(text), { multiline: true });
  };
  // With two words and one object missing kubectl reads the second as a name prefix of the first's type
  // (DescribeMatchingResources): only the objects whose names start with it are described, each followed by a blank
  // line, and none found is the original NotFound. Two TYPE/NAME words describe nothing then, as no name holds a slash;
  // several types before the name are refused there.
  if (notFound.length === 1 && positionals.length === 2) {
    if (args.form === 'tuples' && positionals[0]!.includes('/')) {
      ctx.err(notFound[0]!);
      return 1;
    }
    if (args.form === 'tuples') {
      ctx.err('error: you may only specify a single resource type\n');
      return 1;
    }
    const type = requests[0]!.type;
    const prefix = positionals[1]!;
    const listing = await readListing(fleet, type, { ...where, allNamespaces: false });
    const matching = listing.objects.filter((o) => nameOf(o).startsWith(prefix));
    if (matching.length === 0) {
      ctx.err(notFound[0]!);
      return 1;
    }
    for (const object of matching) ctx.out(`${await describe({ type, object })}\n`);
    return 0;
  }
  let first = true;
  for (const one of found) {
    ctx.out(`${first ? '' : '\n\n'}${await describe(one)}`);
    first = false;
  }
  for (const line of notFound) ctx.err(line);
  if (found.length === 0 && notFound.length === 0)
    ctx.err(
      values['all-namespaces']
        ? 'No resources found\n'
        : `No resources found in ${terminalSafe(values.namespace ?? 'default')} namespace.\n`,
    );
  return notFound.length > 0 ? 1 : 0;
}

/** One object to describe: its type and what the type's listing holds for it. */
interface Found {
  type: ResourceType;
  object: Record<string, unknown>;
}

type Where = { namespace?: string; cluster?: string; now: Date; renderedBranch: string | undefined };

/** The description of one object a listing found, by its type's describer. */
async function describeFound(
  fleet: Fleet,
  type: ResourceType,
  object: Record<string, unknown>,
  where: Where,
): Promise<string> {
  const name = nameOf(object);
  const namespace = namespaceOf(object);
  if (type.type === 'policies') {
    const view = (await readPolicies(fleet, type.kind)).find(
      (v) => v.name === name && (v.namespace ?? '') === namespace,
    )!;
    const history = await readPathHistory(fleet.repo, fleet.source.commit.oid, view.file);
    return describePolicy(view, history, where.now);
  }
  if (type.type === 'federatedhpas') {
    const view = (await readFederatedHpas(fleet)).find(
      (v) => v.template.ref.name === name && v.template.ref.namespace === namespace,
    )!;
    const events = await readFederatedHpaEvents(fleet, view);
    return describeFederatedHpa({ ...view, events }, where.now);
  }
  if (type.type === 'federatedresourcequotas') {
    const view = (await readFederatedQuotas(fleet)).find(
      (v) => v.template.ref.name === name && v.template.ref.namespace === namespace,
    )!;
    const history = await readPathHistory(fleet.repo, fleet.source.commit.oid, view.template.source.file);
    return describeUnstructured(federatedQuotaObject(view), commitEvents(history, where.now));
  }
  if (type.type === 'clusters') {
    const view = (await readClusterViews(fleet)).get(name)!;
    const placed = await readPlaced(fleet, name);
    const upToDate = await folderMatches(fleet, name, view.applied?.folderTree);
    return describeCluster({
      cluster: view.cluster,
      file: view.file,
      ...(view.applied ? { applied: view.applied, upToDate } : {}),
      placed,
      history: await readPathHistory(fleet.repo, fleet.source.commit.oid, view.file),
      now: where.now,
    });
  }
  const rendered = fleet.rendered!;
  const templates = (await rendered.index.templateKeys()).map(parseRefKey);
  // A binding is named <name>-<kind>: describe the template it binds.
  const ref =
    type.type === 'bindings'
      ? templates.find((r) => r.namespace === namespace && bindingPath(r).endsWith(`/${name}.yaml`))!
      : templates.find(
          (r) => type.type === 'templates' && takesKind(type, r) && r.name === name && r.namespace === namespace,
        )!;
  if (where.cluster !== undefined && type.type === 'templates') {
    // The member's copy, as kubectl's generic describer prints an object; its events are the rendered commits that
    // changed it.
    const history = await readPathHistory(fleet.repo, rendered.commit.oid, manifestPath(where.cluster, ref));
    return describeUnstructured(object, commitEvents(history, where.now));
  }
  const bPath = bindingPath(ref);
  const binding = (await readDocuments(fleet.repo, rendered, [bPath])).get(bPath)?.[0] as ResourceBinding | undefined;
  const status = withoutSecretStatus(
    fleet.status
      ? ((await readDocuments(fleet.repo, fleet.status, [templateStatusPath(ref)])).get(templateStatusPath(ref))?.[0] as
          | TemplateStatusFile
          | undefined)
      : undefined,
  );
  const index = (await rendered.index.entriesOf([refKey(ref)])).get(refKey(ref))!;
  // A Secret shows its type and the size of each key, as kubectl describe secret does; never a value.
  const secret = isSecret(ref) ? (await readTemplates(fleet, [{ ref, entry: index }]))[0] : undefined;
  const decision = (await readAutoscaledReplicas(fleet.repo, fleet.status?.commit.oid ?? null)).get(refKey(ref));
  const inGit: unknown = decision
    ? ((await readTemplates(fleet, [{ ref, entry: index }]))[0]?.spec as { replicas?: unknown } | undefined)?.replicas
    : undefined;
  const history = await readObjectHistory(
    fleet.repo,
    await readableBranchRef(fleet.repo, `refs/heads/${where.renderedBranch ?? RENDERED_BRANCH}`),
    {
      kind: ref.kind,
      name: ref.name,
      namespace: ref.namespace,
      maxCommits: 500,
    },
  );
  // A Helm chart's or Kustomize folder's object: its source file is the unit's marker, so say which unit made it.
  const unit = await readTemplateUnit(fleet.repo, rendered.commit.oid, (key) => key === refKey(ref));
  return describeTemplate({
    ref,
    history,
    index,
    ...(unit ? { unit } : {}),
    ...(secret
      ? { secret: { type: typeof secret.type === 'string' ? secret.type : 'Opaque', keys: secretKeySizes(secret) } }
      : {}),
    ...(binding ? { binding, bindingPath: bPath } : {}),
    ...(status ? { status } : {}),
    ...(decision ? { autoscaled: { ...decision, ...(typeof inGit === 'number' ? { inGit } : {}) } } : {}),
  });
}

function nameOf(object: Record<string, unknown>): string {
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
}

function namespaceOf(object: Record<string, unknown>): string {
  const namespace = (object.metadata as { namespace?: unknown } | undefined)?.namespace;
  return typeof namespace === 'string' ? namespace : '';
}

function labelsOf(object: Record<string, unknown>): Record<string, string> | undefined {
  return (object.metadata as { labels?: Record<string, string> } | undefined)?.labels;
}

/** `--show-events[=BOOL]` and the other words; kubectl describes events unless it is false. */
export function readShowEvents(argv: readonly string[]): { showEvents: boolean; rest: string[] } {
  const { values, rest } = readGoBoolFlags(argv, ['show-events']);
  return { showEvents: values['show-events'] ?? true, rest };
}

/**
 * A description without its Events section, as kubectl's describers leave it out with --show-events=false: every
 * describer ends with it, so it starts at the last line that begins with `Events:`.
 */
function withoutEvents(description: string): string {
  const at = description.lastIndexOf('\nEvents:');
  return at < 0 ? description : description.slice(0, at + 1);
}

/** What the rendered branch places on a cluster, from file paths alone: <namespace>/<kind>[.<group>]_<name>.yaml. */
async function readPlaced(fleet: Fleet, cluster: string): Promise<{ namespace: string; kind: string; name: string }[]> {
  const prefix = `clusters/${cluster}/`;
  const keys = (await fleet.rendered?.index.templateKeys()) ?? [];
  const byPath = new Map(
    keys
      .map(parseRefKey)
      .map((r) => [
        `${r.namespace || '_cluster'}/${r.kind.toLowerCase()}${groupOf(r.apiVersion) ? `.${groupOf(r.apiVersion)}` : ''}_${r.name}.yaml`,
        r,
      ]),
  );
  return [...((await fleet.rendered?.list(`clusters/${cluster}`)) ?? new Map()).keys()]
    .filter((p) => p.startsWith(prefix))
    .map((p) => {
      const rel = p.slice(prefix.length);
      const ref = byPath.get(rel);
      if (ref) return { namespace: ref.namespace, kind: ref.kind, name: ref.name };
      const [ns, file] = rel.split('/');
      const under = file!.lastIndexOf('_');
      return {
        namespace: ns === '_cluster' ? '' : ns!,
        kind: file!.slice(0, under),
        name: file!.slice(under + 1).replace(/\.yaml$/, ''),
      };
    });
}

async function folderMatches(fleet: Fleet, cluster: string, folderTree: string | null | undefined): Promise<boolean> {
  if (!fleet.rendered || folderTree === undefined) return false;
  const root = await readTree(fleet.repo, fleet.rendered.commit.tree);
  const clusters = root.find((e) => e.name === 'clusters' && isTreeMode(e.mode));
  const folder = clusters
    ? (await readTree(fleet.repo, clusters.oid)).find((e) => e.name === cluster && isTreeMode(e.mode))
    : undefined;
  return (folder?.oid ?? null) === folderTree;
}
