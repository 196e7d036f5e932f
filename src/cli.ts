// argv -> options -> one command. The only module that reads process.env, prints usage, or exits.
import { parseArgs } from 'node:util';
import { explainCommand } from './commands/explainCommand.ts';
import { renderCommand } from './commands/renderCommand.ts';
import { syncCommand } from './commands/syncCommand.ts';
import { validateCommand } from './commands/validateCommand.ts';
import { UsageError } from './commands/UsageError.ts';

const HELP = `flotilla — run one application across many Kubernetes clusters, steered from Git.

Usage: flotilla <command> [options]

Commands:
  validate   Check every config file at a commit; list every problem with file:line and a fix.
  render     Render a commit to the output branch (or --out-dir).
  sync       Render every source commit not rendered yet, each against the previous one.
  explain    Why a template went where it went: the policy that won, and per cluster the
             filter that rejected it or the replicas it got.
  member     Run a local member cluster that speaks the Kubernetes API (flotilla member serve --help).

Common options:
  --repo DIR              Config repository, bare or not (default: .)
  --rev REV               Source revision (default: head of --source-branch)
  --source-branch NAME    Branch holding the config (default: main)
  --branch NAME           Output branch (default: flotilla/rendered)
  --cluster-status FILE   Cluster objects with status (YAML stream) for capacity and API checks
  -o, --output FORMAT     text (default), yaml or json
  -h, --help              This help

Examples:
  flotilla validate --repo ./config
  flotilla render --repo ./config                 # commits to flotilla/rendered
  flotilla render --repo ./config --out-dir out   # writes the layout to a folder
  flotilla sync --repo ./config.git
  flotilla explain deployment/nginx -n default --repo ./config
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === 'member') {
    if (rest[0] !== 'serve') throw new UsageError('usage: flotilla member serve --name N [--port P] [--data-dir D] [--nodes N|name:cpu:mem:pods,…]');
    const { runMemberServe } = await import('./members/serveCommand.ts');
    await runMemberServe(rest.slice(1));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      repo: { type: 'string', default: '.' },
      rev: { type: 'string' },
      'source-branch': { type: 'string', default: 'main' },
      branch: { type: 'string', default: 'flotilla/rendered' },
      'out-dir': { type: 'string' },
      'cluster-status': { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      output: { type: 'string', short: 'o', default: 'text' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const output = values.output ?? 'text';
  if (!['text', 'yaml', 'json', 'wide'].includes(output)) throw new UsageError(`-o ${output}: use text, wide, yaml or json`);
  const common = {
    repo: values.repo ?? '.',
    rev: values.rev ?? values['source-branch'] ?? 'main',
    sourceRef: `refs/heads/${values['source-branch'] ?? 'main'}`,
    outputRef: `refs/heads/${values.branch ?? 'flotilla/rendered'}`,
    clusterStatusFile: values['cluster-status'],
    output: output as 'text' | 'wide' | 'yaml' | 'json',
    out: (s: string) => process.stdout.write(s),
    err: (s: string) => process.stderr.write(s),
  };
  switch (command) {
    case 'validate':
      return validateCommand(common);
    case 'render':
      return renderCommand({ ...common, outDir: values['out-dir'] });
    case 'sync':
      return syncCommand(common);
    case 'explain': {
      const target = positionals[0];
      if (!target) throw new UsageError('explain needs <kind>/<name>, e.g. flotilla explain deployment/nginx -n default');
      return explainCommand({ ...common, target, namespace: values.namespace });
    }
    default:
      throw new UsageError(`unknown command "${command}"; run flotilla --help`);
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`flotilla: ${(err as Error).message}\n`);
      process.exitCode = 2;
      return;
    }
    const known = err as { code?: string; message?: string };
    if (known.code && known.message) {
      process.stderr.write(`flotilla: ${known.message}\n`);
    } else {
      process.stderr.write(`flotilla: internal error: ${(err as Error)?.stack ?? String(err)}\nPlease report this at the project's issue tracker.\n`);
    }
    process.exitCode = 3;
  },
);
