import { parseArgs } from 'node:util';
import type { ResourceBinding } from '../api/binding.ts';
import { groupOf, parseRefKey, refKey, type ObjectRef } from '../api/kinds.ts';
import { readObjectHistory } from '../audits/readObjectHistory.ts';
import { readTemplateUnit } from '../audits/readTemplateUnit.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode } from '../commits/types.ts';
import type { TemplateStatusFile } from '../branches/status/statusFiles.ts';
import { templateStatusPath } from '../branches/status/statusFiles.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import { describeCluster } from '../views/describeCluster.ts';
import { describeFederatedHpa, readFederatedHpaEvents, readFederatedHpas } from '../views/federatedHpaViews.ts';
import { describeTemplate } from '../views/describeTemplate.ts';
import { describePolicy, isNamespacedPolicy, readPolicies } from '../views/policyViews.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import { readDocuments, type Fleet } from '../views/readFleet.ts';
import { isSecret } from '../interpreters/isSecret.ts';
import { readClusterViews, readTemplates } from '../views/readListing.ts';
import { withoutSecretStatus } from '../statuses/withoutSecretStatus.ts';
import { secretKeySizes } from '../views/redactSecret.ts';
import { readPathHistory } from '../views/readPathHistory.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { openFleet, READ_OPTIONS, resolveOrReport, resourceName, type ReadCommandContext } from './getCommand.ts';
import { UsageError } from '../errors/UsageError.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';

const USAGE = 'flotilla describe cluster NAME | binding NAME [-n NS] | <kind> NAME [-n NS]';

/** `flotilla describe`: kubectl describe over Git state. Exit 0, or 1 when the object does not exist. */
export async function describeCommand(argv: string[], ctx: ReadCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: READ_OPTIONS });
  if (values.help) {
    ctx.out(`Usage: ${USAGE}\n`);
    return 0;
  }
  const fleet = await openFleet('describe', values);
  const target = resolveOrReport(fleet, positionals, USAGE, ctx);
  if (typeof target === 'number') return target;
  const { type, name } = target;
  // The API server's NotFound, as kubectl prints it, whichever namespace was read.
  const notFound = () => {
    ctx.err(`Error from server (NotFound): ${resourceName(type)} "${terminalSafe(name ?? '')}" not found\n`);
    return 1;
  };
  if (!name) throw new UsageError(`describe needs a name: ${USAGE}`);
  if (type.type === 'works')
    throw new UsageError(
      'describe works is not supported; flotilla get works NAME -o yaml shows one, flotilla blame --cluster C <kind>/<name> its origin',
    );
  if (type.type === 'policies') {
    const namespace = isNamespacedPolicy(type.kind) ? (values.namespace ?? 'default') : undefined;
    const view = (await readPolicies(fleet, type.kind)).find((v) => v.name === name && v.namespace === namespace);
    if (!view) return notFound();
    const history = await readPathHistory(fleet.repo, fleet.source.commit.oid, view.file);
    ctx.out(terminalSafe(describePolicy(view, history, ctx.now()), { multiline: true }));
    return 0;
  }
  if (type.type === 'federatedhpas') {
    const namespace = values.namespace ?? 'default';
    const view = (await readFederatedHpas(fleet)).find(
      (v) => v.template.ref.name === name && v.template.ref.namespace === namespace,
    );
    if (!view) return notFound();
    const events = await readFederatedHpaEvents(fleet, view);
    ctx.out(terminalSafe(describeFederatedHpa({ ...view, events }, ctx.now()), { multiline: true }));
    return 0;
  }
  if (type.type === 'clusters') {
    const view = (await readClusterViews(fleet)).get(name);
    if (!view) return notFound();
    const placed = await readPlaced(fleet, name);
    const upToDate = await folderMatches(fleet, name, view.applied?.folderTree);
    ctx.out(
      terminalSafe(
        describeCluster({
          cluster: view.cluster,
          file: view.file,
          ...(view.applied ? { applied: view.applied, upToDate } : {}),
          placed,
          history: await readPathHistory(fleet.repo, fleet.source.commit.oid, view.file),
          now: ctx.now(),
        }),
        { multiline: true },
      ),
    );
    return 0;
  }
  const namespace = values.namespace ?? 'default';
  let ref: ObjectRef | undefined;
  const templates = Object.keys(fleet.rendered?.index.templates ?? {}).map(parseRefKey);
  if (type.type === 'bindings') {
    // A binding is named <name>-<kind>; find the template it binds.
    ref = templates.find(
      (r) =>
        (type.scope === 'cluster' ? r.namespace === '' : r.namespace === namespace) &&
        bindingPath(r).endsWith(`/${name}.yaml`),
    );
  } else {
    const matches = templates.filter(
      (r) =>
        r.kind === type.kind && (type.group === undefined || groupOf(r.apiVersion) === type.group) && r.name === name,
    );
    ref =
      matches.find((r) => r.namespace === namespace) ??
      matches.find((r) => r.namespace === '' && values.namespace === undefined);
  }
  if (!ref || !fleet.rendered) return notFound();
  const rendered = fleet.rendered;
  const bPath = bindingPath(ref);
  const binding = (await readDocuments(fleet.repo, rendered, [bPath])).get(bPath)?.[0] as ResourceBinding | undefined;
  const status = withoutSecretStatus(
    fleet.status
      ? ((await readDocuments(fleet.repo, fleet.status, [templateStatusPath(ref)])).get(templateStatusPath(ref))?.[0] as
          | TemplateStatusFile
          | undefined)
      : undefined,
  );
  const index = rendered.index.templates[refKey(ref)]!;
  // A Secret shows its type and the size of each key, as kubectl describe secret does; never a value.
  const secret = isSecret(ref) ? (await readTemplates(fleet, [{ ref, entry: index }]))[0] : undefined;
  const decision = (await readAutoscaledReplicas(fleet.repo, fleet.status?.commit.oid ?? null)).get(refKey(ref));
  const inGit: unknown = decision
    ? ((await readTemplates(fleet, [{ ref, entry: index }]))[0]?.spec as { replicas?: unknown } | undefined)?.replicas
    : undefined;
  const history = await readObjectHistory(fleet.repo, `refs/heads/${values['rendered-branch'] ?? RENDERED_BRANCH}`, {
    kind: ref.kind,
    name: ref.name,
    namespace: ref.namespace,
    maxCommits: 500,
  });
  // A Helm chart's or Kustomize folder's object: its source file is the unit's marker, so say which unit made it.
  const unit = await readTemplateUnit(fleet.repo, rendered.commit.oid, (key) => key === refKey(ref));
  ctx.out(
    terminalSafe(
      describeTemplate({
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
      }),
      { multiline: true },
    ),
  );
  return 0;
}

/** What the rendered branch places on a cluster, from file paths alone: <namespace>/<kind>[.<group>]_<name>.yaml. */
async function readPlaced(fleet: Fleet, cluster: string): Promise<{ namespace: string; kind: string; name: string }[]> {
  const prefix = `clusters/${cluster}/`;
  const index = fleet.rendered?.index.templates ?? {};
  const byPath = new Map(
    Object.keys(index)
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
