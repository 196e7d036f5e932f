import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import { openRepo } from '../commits/openRepo.ts';
import { repoAround } from '../commits/repoAround.ts';
import { printGetTable } from '../views/printTable.ts';
import { kubectlJson } from '../printers/kubectlJson.ts';
import { SortByError, sortOrder } from '../printers/sortBy.ts';
import { executeJsonPath, JsonPathExecutionError, JsonPathSyntaxError, parseJsonPath } from '../printers/jsonPath.ts';
import { GoTemplateSyntaxError, parseKubectlGoTemplate, printGoTemplate } from '../printers/goTemplate.ts';
import type { GoTemplate } from '../goTemplates/parseGoTemplate.ts';
import { readFileSync } from 'node:fs';
import { formatLabels } from '../labels/formatLabels.ts';
import {
  columnsFromSpec,
  columnsFromTemplate,
  CustomColumnsError,
  printCustomColumns,
  type CustomColumn,
} from '../printers/customColumns.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { goQuote } from '../text/goQuote.ts';
import { groupVersionResource, selectByFields, servedResource } from '../views/fieldSelection.ts';
import { sortKeysDeep } from '../sorting/sortKeysDeep.ts';
import { jsonToGoYaml } from '../yaml/goYamlV2.ts';
import { readFleet, readRegisteredClusters, type Fleet } from '../views/readFleet.ts';
import { describeUnregistered } from '../branches/rendered/registeredClusters.ts';
import { readListing, type Listing } from '../views/readListing.ts';
import { resolveResourceType, type ResourceType } from '../views/resolveResourceType.ts';
import { expandCategory, readCustomResources, type CustomResourceView } from '../views/resourceCategories.ts';
import { UsageError } from '../errors/UsageError.ts';
import { readGoBoolFlags } from './goBoolFlags.ts';
import {
  readResourceArguments,
  ResourceArgumentsError,
  selectorConflict,
  type ResourceArguments,
} from './resourceArguments.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';
import {
  LabelSelectorSyntaxError,
  matchesLabelRequirements,
  parseLabelSelector,
  type LabelRequirement,
} from '../labels/parseLabelSelector.ts';

export interface ReadCommandContext {
  out: (s: string) => void;
  err: (s: string) => void;
  now: () => Date;
}

/** Options shared by get, describe and blame: where the three branches are. */
export const READ_OPTIONS = {
  repo: { type: 'string' },
  rev: { type: 'string' },
  'source-branch': { type: 'string', default: 'main' },
  'rendered-branch': { type: 'string', default: RENDERED_BRANCH },
  'status-branch': { type: 'string', default: STATUS_BRANCH },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A', default: false },
  cluster: { type: 'string' },
  output: { type: 'string', short: 'o', default: 'text' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function openFleet(
  command: string,
  values: {
    repo?: string;
    rev?: string;
    'source-branch'?: string;
    'rendered-branch'?: string;
    'status-branch'?: string;
  },
): Promise<Fleet> {
  const repo = await openRepo(values.repo ?? repoAround('.'));
  return readFleet(repo, {
    rev: values.rev ?? values['source-branch'] ?? 'main',
    renderedRef: `refs/heads/${values['rendered-branch'] ?? RENDERED_BRANCH}`,
    statusRef: `refs/heads/${values['status-branch'] ?? STATUS_BRANCH}`,
    reader: `flotilla ${command}`,
  });
}

/** TYPE [NAME] or TYPE/NAME, resolved against the kinds the repo's templates have. */
export async function resolveTarget(
  fleet: Fleet,
  words: readonly string[],
  usage: string,
): Promise<{ type: ResourceType; word: string; name: string | undefined }> {
  return parseResourceWords(words, usage, (await fleet.rendered?.index.kinds()) ?? []);
}

/**
 * The one object blame, explain and reschedule take: TYPE NAME or TYPE/NAME read as get reads kubectl's words
 * (readResourceArguments), TYPE being kubectl's plural, singular, short name or Kind, optionally `.group`; `kinds` are
 * the templates' kinds, for custom ones. TYPE alone is returned without a name. Several types, names or TYPE/NAME
 * words are refused, naming what was given and what is taken. Pure.
 */
export function parseResourceWords(
  words: readonly string[],
  usage: string,
  kinds: ReadonlyArray<{ apiVersion: string; kind: string }>,
): { type: ResourceType; word: string; name: string | undefined } {
  if (words.length === 0) throw new UsageError(usage);
  let args: ResourceArguments;
  try {
    args = readResourceArguments(words, 'flotilla');
  } catch (err) {
    if (err instanceof ResourceArgumentsError) throw new UsageError(`${err.message}: ${usage}`);
    throw err;
  }
  const one =
    args.form === 'tuples'
      ? args.tuples.length === 1
        ? args.tuples[0]
        : undefined
      : args.form === 'names'
        ? args.names.length === 1
          ? { word: args.word, name: args.names[0] }
          : undefined
        : args.words.length === 1
          ? { word: args.words[0]!, name: undefined }
          : undefined;
  if (!one) throw new UsageError(`one object at a time, as TYPE/NAME or TYPE NAME (${several(args)}): ${usage}`);
  const type = resolveResourceType(one.word, kinds);
  if (!type) throw new UnknownResourceTypeError(one.word);
  return { type, word: one.word, name: one.name };
}

/** What several objects' words asked for, as the refusal of them says it. */
function several(args: ResourceArguments): string {
  if (args.form === 'tuples')
    return `${args.tuples.length} objects: ${args.tuples.map((t) => `${t.word}/${t.name}`).join(' ')}`;
  if (args.form === 'names') return `${args.names.length} names of ${args.word}: ${args.names.join(' ')}`;
  return `${args.words.length} types: ${args.words.join(',')}`;
}

/** A resource type that is neither one of Flotilla's nor a kind the repository's templates have. */
export class UnknownResourceTypeError extends UsageError {
  constructor(readonly word: string) {
    super(
      `no resource type "${word}" in this repository; use clusters, bindings (rb), clusterresourcebindings (crb), works, propagationpolicies (pp), clusterpropagationpolicies (cpp), overridepolicies (op), clusteroverridepolicies (cop), or a template kind such as deployments (deploy)`,
    );
  }
}

/** kubectl's error for a type the server does not serve, then the types this repository has; exit code 1. */
export function reportUnknownType(err: UnknownResourceTypeError, ctx: ReadCommandContext): number {
  ctx.err(`error: the server doesn't have a resource type "${terminalSafe(err.word)}"\n`);
  ctx.err(`flotilla: ${err.message}\n`);
  return 1;
}

const USAGE =
  'flotilla get clusters|bindings|works|pp|cpp|op|cop|all|<kind>[,TYPE...] [NAME... | -l SELECTOR] [--field-selector SELECTOR] | TYPE/NAME... [-n NS|-A] [--cluster C] [-o wide|yaml|json|name|go-template=TEMPLATE|go-template-file=FILE|jsonpath=TEMPLATE|jsonpath-file=FILE|custom-columns=SPEC|custom-columns-file=FILE] [--template TEMPLATE] [--allow-missing-template-keys=false] [--sort-by PATH] [--no-headers] [--show-labels] [--show-kind] [-L KEY,...]  (and: flotilla get shards --help)';

/** get's flags: the read options, and kubectl's label selector. */
const GET_OPTIONS = {
  ...READ_OPTIONS,
  selector: { type: 'string', short: 'l' },
  'field-selector': { type: 'string' },
  'label-columns': { type: 'string', short: 'L', multiple: true },
  'sort-by': { type: 'string' },
  template: { type: 'string' },
  watch: { type: 'boolean', short: 'w', default: false },
} as const;

/** get's boolean flags that take `=BOOL` as kubectl's do (the short -A and -w are read by parseArgs). */
const GET_BOOL_FLAGS = [
  'all-namespaces',
  'no-headers',
  'show-labels',
  'watch',
  'watch-only',
  'allow-missing-template-keys',
  'show-kind',
  'output-watch-events',
] as const;

/**
 * `flotilla get`: kubectl get over Git state. Clusters from the config repo and the status branch, bindings
 * and works from the rendered branch, templates with their aggregated status; several types, names or TYPE/NAME
 * words as kubectl reads them. Exit 0, or 1 when a named object does not exist.
 */
export async function getCommand(argv: string[], ctx: ReadCommandContext): Promise<number> {
  const bools = readGoBoolFlags(argv, GET_BOOL_FLAGS);
  const parsed = parseArgs({ args: bools.rest, allowPositionals: true, options: GET_OPTIONS });
  const { positionals } = parsed;
  const values = {
    ...parsed.values,
    'all-namespaces': bools.values['all-namespaces'] ?? parsed.values['all-namespaces'],
    watch: bools.values.watch ?? parsed.values.watch,
    'no-headers': bools.values['no-headers'] ?? false,
    'show-labels': bools.values['show-labels'] ?? false,
    'watch-only': bools.values['watch-only'] ?? false,
    'show-kind': bools.values['show-kind'] ?? false,
    'output-watch-events': bools.values['output-watch-events'] ?? false,
    // kubectl's default: a missing field gives nothing rather than an error.
    'allow-missing-template-keys': bools.values['allow-missing-template-keys'] ?? true,
  };
  if (values.help) {
    ctx.out(
      `Usage: ${USAGE}\n       [--repo DIR] [--rev REV] [--source-branch main] [--rendered-branch flotilla/rendered] [--status-branch flotilla/status]\n`,
    );
    return 0;
  }
  if (values.watch || values['watch-only'])
    throw new UsageError(
      '--watch is not supported: flotilla get reads Git, which has no watch; run it again after the next sync, or watch a member with kubectl --context CLUSTER get -w',
    );
  // Flotilla's own default `text` is kubectl's empty -o.
  const requested = values.output === 'text' ? '' : (values.output ?? '');
  const templateArg = values.template ?? '';
  // kubectl's Validate: labels are a column of its own table, which no other output has.
  if (values['show-labels'] && requested !== '' && requested !== 'wide') {
    ctx.err(`error: --show-labels option cannot be used with ${requested} printer\n`);
    return 1;
  }
  if (values['output-watch-events']) {
    ctx.err('error: --output-watch-events option can only be used with --watch or --watch-only\n');
    return 1;
  }
  const output = chooseOutput(requested, templateArg, values['no-headers'] ?? false);
  const template = output.type === 'jsonpath' ? output.template : undefined;
  const goTemplate = output.type === 'go-template' ? output.template : undefined;
  const columns = output.type === 'custom-columns' ? output.columns : undefined;
  const requirements = values.selector === undefined ? undefined : selectorRequirements(values.selector);
  // Sent to the server as given, trimmed (cli-runtime's FieldSelectorParam); an empty one selects everything.
  const fieldSelector = (values['field-selector'] ?? '').trim();
  if (positionals.length === 0) throw new UsageError(USAGE);
  const opened = await openRequests(
    'get',
    positionals,
    requirements !== undefined || fieldSelector !== '',
    values,
    ctx,
  );
  if (typeof opened === 'number') return opened;
  const { args, fleet, crds, requests } = opened;
  const unrendered = nothingRendered(fleet, requests, values['rendered-branch']);
  if (unrendered) {
    ctx.err(unrendered);
    return 1;
  }
  // A misspelt --cluster would list nothing and say so as an empty namespace would: named as blame names it instead.
  if (values.cluster !== undefined) {
    const registered = [...(await readRegisteredClusters(fleet)).keys()].map((name) => ({ name }));
    const unregistered = describeUnregistered(values.cluster, registered);
    if (unregistered) {
      ctx.err(`error: ${terminalSafe(unregistered)}\n`);
      return 1;
    }
  }
  // What kubectl calls its infos: a table per type listed, one per named object found; a missing one is an error
  // printed after everything found.
  const infos: GetInfo[] = [];
  const notFound: string[] = [];
  const warnings = new Set<string>();
  const fieldSelected = (type: ResourceType, listing: Listing): Listing | string => {
    const served = servedResource(type, crds, listing);
    const chosen = selectByFields(listing, served.selectable, fieldSelector);
    if (typeof chosen !== 'string') return chosen;
    return `Error from server (BadRequest): Unable to find ${goQuote(groupVersionResource(type, served))} that match label selector ${goQuote((values.selector ?? '').trim())}, field selector ${goQuote(fieldSelector)}: ${terminalSafe(chosen)}\n`;
  };
  for (const { type, name } of requests) {
    const listed = await readListing(fleet, type, {
      ...(name !== undefined ? { name } : {}),
      ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
      ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
      allNamespaces: values['all-namespaces'] ?? false,
      wide: output.type === 'wide',
      now: ctx.now(),
    });
    // cli-runtime's builder refuses a name with --all-namespaces for a namespaced type (a cluster-scoped one is read);
    // -A gives a namespaced type, and only such a type, its NAMESPACE column.
    if (name !== undefined && values['all-namespaces'] && listed.headers[0] === 'NAMESPACE')
      throw new UsageError('a resource cannot be retrieved by name across all namespaces');
    for (const warning of listed.warnings ?? []) warnings.add(warning);
    const labelled = requirements ? selected(listed, requirements) : listed;
    const listing = fieldSelector === '' ? labelled : fieldSelected(type, labelled);
    // The API server's refusal of the field selector for this type, in kubectl's words (EnhanceListError), said
    // after what the other types listed.
    if (typeof listing === 'string') {
      notFound.push(listing);
      continue;
    }
    // kubectl's words (the API server's NotFound), whichever namespace or cluster was read.
    if (name !== undefined && listing.rows.length === 0)
      notFound.push(`Error from server (NotFound): ${resourceName(type)} "${terminalSafe(name)}" not found\n`);
    else infos.push({ type, listing });
  }
  for (const warning of warnings) ctx.err(`Warning: ${terminalSafe(warning)}\n`);
  // One name or one resource/name word asks for an object, which is printed alone or, missing, is the whole error.
  const single = args.form === 'names' ? args.names.length === 1 : args.form === 'tuples' && args.tuples.length === 1;
  if (single && notFound.length > 0) {
    for (const line of notFound) ctx.err(line);
    return 1;
  }
  const sortBy = values['sort-by'] ?? '';
  if (output.type === 'table' || output.type === 'wide') {
    const tables = sortBy === '' ? infos : sortedTables(infos, sortBy);
    if ('error' in tables) {
      ctx.err(`error: ${terminalSafe(tables.error)}\n`);
      return 1;
    }
    const written = printTables(tables, {
      noHeaders: values['no-headers'] ?? false,
      showKind: values['show-kind'],
      labels: {
        keys: (values['label-columns'] ?? []).flatMap((text) => text.split(',')),
        show: values['show-labels'] ?? false,
      },
      out: ctx.out,
    });
    if (!written && notFound.length === 0)
      ctx.err(
        // kubectl: with --all-namespaces, or any kind cluster-scoped, no namespace is named.
        !values['all-namespaces'] && infos.every((info) => info.listing.namespaced)
          ? `No resources found in ${terminalSafe(values.namespace ?? 'default')} namespace.\n`
          : 'No resources found\n',
      );
    return reportErrors(notFound, undefined, ctx);
  }
  // kubectl makes these printers once the objects are read: a missing object's error comes first.
  const unusable =
    output.type === 'unusable'
      ? output
      : template && 'error' in template
        ? template
        : goTemplate && 'error' in goTemplate
          ? goTemplate
          : columns && 'error' in columns
            ? columns
            : undefined;
  if (unusable) {
    ctx.err(`error: ${unusable.error}\n`);
    return 1;
  }
  // printGeneric: every object found, of every type, in one list, which --sort-by sorts as a whole.
  let items = infos.flatMap(({ type, listing }) =>
    listing.objects.map((object, i) => ({
      type,
      object,
      row: listing.rows[i],
      nameAt: listing.headers.indexOf('NAME'),
    })),
  );
  if (sortBy !== '' && !(single && items.length === 1)) {
    try {
      const order = sortOrder(
        items.map((item) => item.object),
        sortBy,
        'list',
      );
      items = order.map((i) => items[i]!);
    } catch (err) {
      if (!(err instanceof SortByError)) throw err;
      return reportErrors(notFound, terminalSafe(err.message), ctx);
    }
  }
  const objects = items.map((item) => item.object);
  const table = columns && 'columns' in columns ? columns : undefined;
  let failed: string | undefined;
  const listed =
    single && objects.length === 1
      ? objects[0]
      : { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: objects };
  if (table) failed = printColumns(table, objects, ctx);
  else if (goTemplate && 'template' in goTemplate) {
    const printed = printGoTemplate(goTemplate.template, listed, values['allow-missing-template-keys']);
    // Strings from Git are printed as the template asks, but no control character but tab and newline reaches the terminal.
    ctx.out(terminalSafe(printed.output, { multiline: true }));
    failed = printed.error === undefined ? undefined : terminalSafe(printed.error, { multiline: true });
  } else if (output.type === 'name')
    for (const { type, object, row, nameAt } of items) {
      // kubectl prints kind.group/name, the kind lower-cased (`deployment.apps/web`, `service/web`), and the object's
      // own name: a Work's, not the name of the template it carries that its table shows.
      const own = (object as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
      ctx.out(`${kindPrefix(type)}/${terminalSafe(typeof own === 'string' ? own : (row?.[nameAt] ?? ''))}\n`);
    }
  else
    failed = printObject(
      output.type === 'yaml' ? 'yaml' : 'json',
      template,
      values['allow-missing-template-keys'],
      listed,
      ctx,
    );
  return reportErrors(notFound, failed, ctx);
}

/**
 * kubectl's end of a get that failed in part: the objects not found, then the printer's error, one a line; an error
 * of kubectl's own says `error: ` only when it is the only one (cmdutil.CheckErr prints an aggregate's errors bare).
 */
function reportErrors(notFound: readonly string[], failed: string | undefined, ctx: ReadCommandContext): number {
  for (const line of notFound) ctx.err(line);
  if (failed === undefined) return notFound.length > 0 ? 1 : 0;
  // Alone, it ends with the one line break kubectl's fatal adds when missing; in an aggregate, each error gets one.
  if (notFound.length > 0) ctx.err(`${failed}\n`);
  else ctx.err(`error: ${failed}${failed.endsWith('\n') ? '' : '\n'}`);
  return 1;
}

/**
 * What get's and describe's words ask for, in the fleet they open: words kubectl refuses, and a type no one serves,
 * are printed as kubectl prints them, and their exit code is returned instead.
 */
export async function openRequests(
  command: 'get' | 'describe',
  positionals: readonly string[],
  selector: boolean,
  values: Parameters<typeof openFleet>[1],
  ctx: ReadCommandContext,
): Promise<{ args: ResourceArguments; fleet: Fleet; crds: CustomResourceView[]; requests: GetRequest[] } | number> {
  let args: ResourceArguments;
  try {
    args = readResourceArguments(positionals, 'flotilla');
  } catch (err) {
    if (!(err instanceof ResourceArgumentsError)) throw err;
    ctx.err(`error: ${terminalSafe(err.message)}\n`);
    return 1;
  }
  const conflict = selector ? selectorConflict(args) : undefined;
  if (conflict) throw new UsageError(conflict);
  const fleet = await openFleet(command, values);
  const crds = await readCustomResources(fleet);
  try {
    return {
      args,
      fleet,
      crds,
      requests: getRequests(args, (await fleet.rendered?.index.kinds()) ?? [], (word) => expandCategory(word, crds)),
    };
  } catch (err) {
    if (err instanceof ResourceArgumentsError) {
      ctx.err(`error: ${terminalSafe(err.message)}\n`);
      return 1;
    }
    if (!(err instanceof UnknownResourceTypeError)) throw err;
    return reportUnknownType(err, ctx);
  }
}

/**
 * What to say when a type read from the rendered branch is asked for before anything is rendered (clusters, policies
 * and FederatedHPAs are read from the source); undefined when there is nothing to say.
 */
export function nothingRendered(
  fleet: Fleet,
  requests: readonly GetRequest[],
  renderedBranch: string | undefined,
): string | undefined {
  if (fleet.rendered) return undefined;
  if (requests.every((r) => ['clusters', 'federatedhpas', 'federatedresourcequotas', 'policies'].includes(r.type.type)))
    return undefined;
  return `flotilla: nothing is rendered yet (no ${renderedBranch ?? RENDERED_BRANCH} branch, nor origin's copy of it); fix: in a clone, git fetch origin; else point --repo at the repository the reconciler renders to, or run flotilla sync to render here\n`;
}

/** One resource type get reads, and the object's name when one is named. */
export interface GetRequest {
  type: ResourceType;
  name?: string;
}

/** A table kubectl prints: a type's listing, or one named object's. */
interface GetInfo {
  type: ResourceType;
  listing: Listing;
}

/**
 * The reads the words ask for, in kubectl's order: each type once however it is spelled (`deploy,deployments` is
 * one), each name of a type in turn, each resource/name word as given. A category (`all`) stands for its resource
 * types where a type is written (not in TYPE/NAME words), as cli-runtime's ReplaceAliases expands it; one that
 * stands for several types beside names is kubectl's refusal. A type no one serves ends it before any read.
 */
export function getRequests(
  args: ResourceArguments,
  kinds: ReadonlyArray<{ apiVersion: string; kind: string }>,
  categories: (word: string) => ResourceType[] | undefined = () => undefined,
): GetRequest[] {
  const typeOf = (word: string) => {
    const type = resolveResourceType(word, kinds);
    if (!type) throw new UnknownResourceTypeError(word);
    return type;
  };
  const typesOf = (word: string) => categories(word) ?? [typeOf(word)];
  if (args.form === 'names') {
    const types = typesOf(args.word);
    if (types.length > 1) throw new ResourceArgumentsError('you must specify only one resource');
    const type = types[0]!;
    return args.names.map((name) => ({ type, name }));
  }
  if (args.form === 'tuples') {
    const types = new Map<string, ResourceType>();
    for (const { word } of args.tuples) if (!types.has(word)) types.set(word, typeOf(word));
    return args.tuples.map(({ word, name }) => ({ type: types.get(word)!, name }));
  }
  const types = args.words.flatMap(typesOf);
  return types
    .filter((type, i) => types.findIndex((t) => resourceName(t) === resourceName(type)) === i)
    .map((type) => ({ type }));
}

/** The shape of a Table, all kubectl's own --sort-by reads when it has more than one to print (see sortedTables). */
const TABLE_OBJECT = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {} };

/**
 * kubectl's own table with --sort-by. With more than one table (several types, several names) kubectl sorts the
 * tables themselves by the field, as objects, before any row: a field a Table does not have (any object field,
 * `.metadata.name`) ends the command with its "couldn't find any field" error. Then each table's rows are sorted; a
 * table the row sorter refuses prints nothing, silently (kubectl ignores its printer's error there), and values the
 * sorter cannot compare end the command.
 */
function sortedTables(infos: readonly GetInfo[], sortBy: string): GetInfo[] | { error: string } {
  let tables = [...infos];
  if (tables.length >= 2) {
    try {
      tables = sortOrder(
        tables.map(() => TABLE_OBJECT),
        sortBy,
        'list',
      ).map((i) => infos[i]!);
    } catch (err) {
      if (!(err instanceof SortByError)) throw err;
      return { error: err.message };
    }
  }
  const out: GetInfo[] = [];
  for (const info of tables) {
    try {
      out.push({ ...info, listing: sorted(info.listing, sortOrder(info.listing.objects, sortBy, 'table')) });
    } catch (err) {
      if (!(err instanceof SortByError)) throw err;
      // Values Go cannot compare end kubectl (klog's fatal line), whatever was to be printed.
      if (err.printed) return { error: err.message };
      out.push({ ...info, listing: { ...info.listing, rows: [], objects: [] } });
    }
  }
  return out;
}

/**
 * kubectl get's human-readable output of its tables: consecutive tables of one type share a header and column widths;
 * a new type starts a table of its own, after a blank line when something was printed before it (not with
 * --no-headers). With more than one type or --show-kind, each name is kind.group/name. With -A, once a
 * namespaced type's table is printed every later table has a NAMESPACE column (a cluster-scoped object's empty), as
 * kubectl's shared print flags keep it. Returns whether anything was printed.
 */
function printTables(
  tables: readonly GetInfo[],
  options: {
    noHeaders: boolean;
    showKind: boolean;
    labels: { keys: readonly string[]; show: boolean };
    out: (s: string) => void;
  },
): boolean {
  const withKind = options.showKind || new Set(tables.map((t) => resourceName(t.type))).size > 1;
  let withNamespace = false;
  let written = false;
  for (let start = 0; start < tables.length; ) {
    const type = tables[start]!.type;
    let end = start;
    while (end < tables.length && resourceName(tables[end]!.type) === resourceName(type)) end++;
    const group = tables.slice(start, end);
    start = end;
    let headers = group[0]!.listing.headers;
    let rows = group.flatMap((t) => t.listing.rows);
    const objects = group.flatMap((t) => t.listing.objects);
    if (headers[0] === 'NAMESPACE') withNamespace = true;
    else if (withNamespace) {
      headers = ['NAMESPACE', ...headers];
      rows = rows.map((row, i) => [namespaceOf(objects[i]), ...row]);
    }
    const nameAt = headers.indexOf('NAME');
    // A Work's table names the template it carries, not the Work: no kind is put before it.
    if (withKind && nameAt >= 0 && type.type !== 'works') {
      const prefix = kindPrefix(type);
      rows = rows.map((row) => row.map((cell, i) => (i === nameAt ? `${prefix}/${cell}` : cell)));
    }
    if (rows.length === 0) continue;
    const table = withLabelColumns({ headers, rows, objects }, options.labels);
    if (written && !options.noHeaders) options.out('\n');
    options.out(printGetTable(table.headers, table.rows, { noHeaders: options.noHeaders }));
    written = true;
  }
  return written;
}

function namespaceOf(object: unknown): string {
  const namespace = (object as { metadata?: { namespace?: unknown } } | undefined)?.metadata?.namespace;
  return typeof namespace === 'string' ? namespace : '';
}

/** kind.group as kubectl prints it before a name (`deployment.apps`, `service`): GroupKind's string, lower-cased. */
function kindPrefix(type: ResourceType): string {
  return `${kindOf(type)}${groupOf(type) ? `.${groupOf(type)}` : ''}`.toLowerCase();
}

/** A parsed -o jsonpath template, or kubectl's error for one that cannot be used. */
type Template = { text: string; asJson: boolean } | { error: string };

/**
 * What -o (and --template) ask get to print, chosen as kubectl's PrintFlags.ToPrinter tries its printers in turn:
 * templates, json and yaml (any case), its own table (`` or `wide`), custom columns, name (any case). A format none
 * takes is kubectl's error, said once the objects are read, as kubectl makes its printer then. --template alone is a
 * Go template.
 */
type OutputChoice =
  | { type: 'table' | 'wide' | 'json' | 'yaml' | 'name' }
  | { type: 'jsonpath'; template: Template }
  | { type: 'go-template'; template: { template: GoTemplate } | { error: string } }
  | { type: 'custom-columns'; columns: Columns }
  | { type: 'unusable'; error: string };

const GO_TEMPLATE_FORMATS = ['go-template', 'go-template-file', 'template', 'templatefile'];
const ALLOWED_FORMATS =
  'custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml';

function chooseOutput(format: string, templateArg: string, noHeaders: boolean): OutputChoice {
  const templateFormat = format === '' && templateArg !== '' ? 'go-template' : format;
  const goTemplate = templateFormatValue(templateFormat, templateArg, GO_TEMPLATE_FORMATS);
  if (goTemplate) return { type: 'go-template', template: goTemplateOutput(goTemplate.format, goTemplate.value) };
  const jsonPath = templateFormatValue(format, templateArg, ['jsonpath', 'jsonpath-as-json', 'jsonpath-file']);
  if (jsonPath) return { type: 'jsonpath', template: jsonPathTemplate(jsonPath.format, jsonPath.value) };
  const lower = format.toLowerCase();
  if (lower === 'json' || lower === 'yaml') return { type: lower };
  if (format === '' || format === 'wide') return { type: format === '' ? 'table' : 'wide' };
  const columns =
    format === '' ? undefined : templateFormatValue(format, templateArg, ['custom-columns', 'custom-columns-file']);
  if (columns)
    return { type: 'custom-columns', columns: customColumnsOutput(columns.format, columns.value, noHeaders) };
  if (lower === 'name') return { type: 'name' };
  return {
    type: 'unusable',
    error: `unable to match a printer suitable for the output format ${JSON.stringify(format)}, allowed formats are: ${ALLOWED_FORMATS}`,
  };
}

/**
 * cli-runtime's reading of a template format: `FORMAT=VALUE`, or FORMAT alone with --template's value; undefined
 * when the format is none of these (a format with `=` beside --template is none of them).
 */
function templateFormatValue(
  format: string,
  templateArg: string,
  formats: readonly string[],
): { format: string; value: string } | undefined {
  if (templateArg === '' && format === '') return undefined;
  let name = format;
  let value = templateArg;
  if (templateArg === '') {
    const prefixed = formats.find((f) => format.startsWith(`${f}=`));
    if (prefixed) {
      name = prefixed;
      value = format.slice(prefixed.length + 1);
    }
  }
  return formats.includes(name) ? { format: name, value } : undefined;
}

/**
 * cli-runtime's JSONPathPrintFlags: `jsonpath`, `jsonpath-as-json` and `jsonpath-file` (read here), each parsed
 * before anything is read, with kubectl's errors for an empty, unreadable or unparsable template.
 */
function jsonPathTemplate(format: string, value: string): Template {
  let text = value;
  if (text === '') return { error: 'template format specified but no template given' };
  if (format === 'jsonpath-file') {
    try {
      text = readFileSync(text, 'utf8');
    } catch (err) {
      return { error: `error reading --template ${text}, ${goOpenError(text, err)}` };
    }
  }
  try {
    parseJsonPath(text);
  } catch (err) {
    if (err instanceof JsonPathSyntaxError) return { error: `error parsing jsonpath ${text}, ${err.message}` };
    throw err;
  }
  return { text, asJson: format === 'jsonpath-as-json' };
}

/**
 * cli-runtime's GoTemplatePrintFlags: `go-template` and `template` take the template, `go-template-file` and
 * `templatefile` a file holding it; parsed before anything is read, with kubectl's errors for an empty, unreadable or
 * unparsable one.
 */
function goTemplateOutput(format: string, value: string): { template: GoTemplate } | { error: string } {
  let text = value;
  if (text === '') return { error: 'template format specified but no template given' };
  if (format === 'go-template-file' || format === 'templatefile') {
    try {
      text = readFileSync(text, 'utf8');
    } catch (err) {
      return { error: `error reading --template ${text}, ${goOpenError(text, err)}` };
    }
  }
  try {
    return { template: parseKubectlGoTemplate(text) };
  } catch (err) {
    if (err instanceof GoTemplateSyntaxError) return { error: `error parsing template ${text}, ${err.message}` };
    throw err;
  }
}

/** A file that could not be read, in Go's os.PathError words (`open FILE: no such file or directory`). */
function goOpenError(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : (err as Error).message;
  return `${code === 'EISDIR' ? 'read' : 'open'} ${file}: ${reason}`;
}

/** The -o custom-columns or custom-columns-file columns, or kubectl's error for them. */
type Columns = { columns: CustomColumn[]; noHeaders: boolean } | { error: string };

/**
 * cli-runtime's CustomColumnsPrintFlags, parsed before anything is read: the spec (which --no-headers applies to) or
 * the file's two lines (to which it does not).
 */
function customColumnsOutput(format: string, value: string, noHeaders: boolean): Columns {
  try {
    if (value === '') return { error: 'custom-columns format specified but no custom columns given' };
    if (format === 'custom-columns') return { columns: columnsFromSpec(value), noHeaders };
    let text: string;
    try {
      text = readFileSync(value, 'utf8');
    } catch (err) {
      // Go opens a directory and its scanner reads no line from it.
      if ((err as NodeJS.ErrnoException).code === 'EISDIR') text = '';
      else return { error: `error reading template ${value}, ${goOpenError(value, err)}` };
    }
    return { columns: columnsFromTemplate(text), noHeaders: false };
  } catch (err) {
    if (err instanceof CustomColumnsError) return { error: err.message };
    throw err;
  }
}

/** Prints the custom-columns table of the objects; a path that fails on one stops it, and its error is returned. */
function printColumns(
  columns: { columns: CustomColumn[]; noHeaders: boolean },
  objects: readonly unknown[],
  ctx: ReadCommandContext,
): string | undefined {
  const printed = printCustomColumns(columns.columns, objects, { noHeaders: columns.noHeaders });
  ctx.out(printed.text);
  return printed.error === undefined ? undefined : terminalSafe(printed.error);
}

/**
 * What get prints for -o yaml, json or jsonpath: the object, or the template applied to it (a missing field an error
 * only with --allow-missing-template-keys=false); a template that fails on the object exits 1 with JSONPathPrinter's words.
 */
function printObject(
  output: string,
  template: Template | undefined,
  allowMissingKeys: boolean,
  value: unknown,
  ctx: ReadCommandContext,
): string | undefined {
  if (!template || 'error' in template) {
    ctx.out(asKubectlPrints(output === 'yaml' ? 'yaml' : 'json', value));
    return undefined;
  }
  try {
    // Strings from Git are printed as the template asks, but no control character but tab and newline reaches the terminal.
    ctx.out(
      terminalSafe(executeJsonPath(template.text, value, { allowMissingKeys, asJson: template.asJson }), {
        multiline: true,
      }),
    );
    return undefined;
  } catch (err) {
    if (!(err instanceof JsonPathExecutionError)) throw err;
    // kubectl goes on to dump the object as Go's %#v of a map; the JSON of it says the same to a reader.
    return `error executing jsonpath ${JSON.stringify(template.text)}: Error executing template: ${err.message}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t${template.text}\n\tobject given to jsonpath engine was:\n\t\t${terminalSafe(JSON.stringify(value))}\n\n\n`;
  }
}

/** `-l`'s selector read, or a usage error that quotes it. */
export function selectorRequirements(text: string): LabelRequirement[] {
  try {
    return parseLabelSelector(text);
  } catch (err) {
    if (err instanceof LabelSelectorSyntaxError) throw new UsageError(`-l ${text}: ${err.message}`);
    throw err;
  }
}

/** The listing's rows and objects in this order. */
function sorted(listing: Listing, order: readonly number[]): Listing {
  return { ...listing, rows: order.map((i) => listing.rows[i]!), objects: order.map((i) => listing.objects[i]!) };
}

/** The rows whose object's labels the selector takes: each row of a listing stands for the object beside it. */
function selected(listing: Listing, requirements: LabelRequirement[]): Listing {
  const keep = listing.objects.map((o) =>
    matchesLabelRequirements(requirements, (o as { metadata?: { labels?: Record<string, string> } }).metadata?.labels),
  );
  return {
    ...listing,
    rows: listing.rows.filter((_, i) => keep[i]),
    objects: listing.objects.filter((_, i) => keep[i]),
  };
}

/**
 * cli-runtime's decorateTable: a column per -L key (headed by the key's last path segment, upper-cased; the
 * object's value or an empty cell), then with --show-labels a LABELS column (every label, sorted, or <none>). Pure.
 */
export function withLabelColumns(
  listing: Pick<Listing, 'headers' | 'rows' | 'objects'>,
  labels: { keys: readonly string[]; show: boolean },
): { headers: string[]; rows: string[][] } {
  const headers = [
    ...listing.headers,
    ...labels.keys.map((key) => key.split('/').at(-1)!.toUpperCase()),
    ...(labels.show ? ['LABELS'] : []),
  ];
  const rows = listing.rows.map((row, i) => {
    const own =
      listing.objects.length === listing.rows.length
        ? (listing.objects[i] as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels
        : undefined;
    const all = own ?? {};
    return [
      ...row,
      ...labels.keys.map((key) => (Object.hasOwn(all, key) ? all[key]! : '')),
      ...(labels.show ? [formatLabels(all)] : []),
    ];
  });
  return { headers, rows };
}

/** The resource as the API server names it in its errors: plural.group (`deployments.apps`, `services`). */
export function resourceName(type: ResourceType): string {
  return type.type === 'templates'
    ? `${type.plural}${type.group ? `.${type.group}` : ''}`
    : type.type === 'bindings'
      ? type.scope === 'cluster'
        ? 'clusterresourcebindings.work.karmada.io'
        : 'resourcebindings.work.karmada.io'
      : type.type === 'works'
        ? 'works.work.karmada.io'
        : type.type === 'federatedhpas'
          ? 'federatedhpas.autoscaling.karmada.io'
          : type.type === 'federatedresourcequotas'
            ? 'federatedresourcequotas.policy.karmada.io'
            : type.type === 'policies'
              ? `${type.plural}.policy.karmada.io`
              : 'clusters.cluster.karmada.io';
}

/** The Kind of what a resource type lists. */
function kindOf(type: ResourceType): string {
  switch (type.type) {
    case 'clusters':
      return 'Cluster';
    case 'bindings':
      return type.scope === 'cluster' ? 'ClusterResourceBinding' : 'ResourceBinding';
    case 'works':
      return 'Work';
    case 'federatedhpas':
      return 'FederatedHPA';
    case 'federatedresourcequotas':
      return 'FederatedResourceQuota';
    default:
      return type.kind;
  }
}

/** The API group of what a resource type lists ('' for the core group). */
function groupOf(type: ResourceType): string {
  switch (type.type) {
    case 'clusters':
      return 'cluster.karmada.io';
    case 'bindings':
    case 'works':
      return 'work.karmada.io';
    case 'federatedhpas':
      return 'autoscaling.karmada.io';
    case 'federatedresourcequotas':
    case 'policies':
      return 'policy.karmada.io';
    default:
      return type.group ?? '';
  }
}

/**
 * An object as kubectl prints what it holds as unstructured: -o json through Go's encoding/json (kubectlJson), every
 * map's keys sorted by their bytes (`apiVersion, items, kind, metadata`; a container's `image` before its `name`),
 * four spaces of indent; -o yaml through sigs.k8s.io/yaml, go-yaml v2's key order and layout (`items:` then `- apiVersion: v1`). The order
 * Git had is not kept.
 */
function asKubectlPrints(format: 'yaml' | 'json', value: unknown): string {
  if (format === 'json') return kubectlJson(value);
  const yaml = jsonToGoYaml(value);
  // go-yaml refuses a few characters encoding/json lets through; kubectl would fail there, the generic writer does not.
  return yaml.ok ? yaml.text : render('yaml', sortKeysDeep(value));
}

export function render(format: 'yaml' | 'json', value: unknown): string {
  return format === 'json'
    ? `${JSON.stringify(value, null, 4)}\n`
    : stringify(value, { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false });
}
