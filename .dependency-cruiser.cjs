// The layers of src/ (ARCHITECTURE.md), checked by `npm run check:layers` (part of `npm test`).
//
// Every folder (or top-level file) of src/ has a rank, lowest first; a module may import only from its own folder
// or from a folder ranked below it. A strict order forbids upward imports and, with them, any cycle between
// folders; `no-circular` forbids cycles between files as well. Type-only imports count like any other: a type
// that has to be imported upward is in the wrong place.
//
// The member-cluster emulator (src/members/) stands beside the product: it imports only the shared kernel, and
// the product reaches it only through its public entry src/members/index.ts.

/** Lowest first. Each group is one layer of ARCHITECTURE.md; inside a group, folders are ranked in the order listed. */
const LAYERS = [
  ['kernel', ['errors', 'api', 'hashing', 'concurrency', 'time', 'text', 'yaml', 'patches', 'quantities', 'labels', 'fieldSelectors', 'names', 'kubeValidation', 'confinement', 'sorting', 'goTemplates', 'printers', 'crdSchemas']],
  ['git object store', ['commits', 'credentials']],
  ['branch formats', ['branches']],
  ['policy matching', ['selectors', 'interpreters', 'overrides', 'bindings']],
  ['documents', ['documents', 'units', 'registrations']],
  ['scheduling', ['assignments', 'taints', 'evictions']],
  ['rendering', ['works', 'outputs']],
  ['delivery', ['deliveries']],
  ['status', ['autoscalers', 'statuses', 'commitStatuses']],
  ['plans', ['plans']],
  ['runtime', ['leases', 'shards', 'reconcile', 'passes', 'pullAgent']],
  ['inspection', ['audits', 'views']],
  ['dashboard', ['dashboard']],
  ['CLI', ['commands', 'cli']],
];
/** What the emulator may import from the product's tree: the shared kernel only. */
const KERNEL = LAYERS[0][1];

const ORDER = LAYERS.flatMap(([layer, folders]) => folders.map((folder) => ({ layer, folder })));
const at = (folder) => `^src/${folder}(/|\\.ts$)`;
const any = (folders) => `^src/(${folders.join('|')})(/|\\.ts$)`;

const upward = ORDER.slice(0, -1).map(({ layer, folder }, i) => ({
  name: `layer-${folder}`,
  comment: `src/${folder} (layer "${layer}") may import only from folders ranked below it in .dependency-cruiser.cjs`,
  severity: 'error',
  from: { path: at(folder) },
  to: { path: any(ORDER.slice(i + 1).map((o) => o.folder)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files import each other in a circle: move the shared piece down into its own module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'members-beside-the-product',
      comment: 'The member emulator imports nothing from the product, only the shared kernel.',
      severity: 'error',
      from: { path: '^src/members/' },
      to: { path: '^src/', pathNot: `^src/members/|${any(KERNEL)}` },
    },
    {
      name: 'members-through-index',
      comment: 'The product reaches the member emulator only through src/members/index.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/members/' },
      to: { path: '^src/members/', pathNot: '^src/members/index\\.ts$' },
    },
    {
      name: 'unranked-folder',
      comment: 'Every folder of src/ has a rank: add a new folder to LAYERS in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${any(ORDER.map((o) => o.folder))}|^src/members/` },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
