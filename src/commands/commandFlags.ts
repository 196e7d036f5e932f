// The flags of the commands that share one argument parser in cli.ts, per command: a flag another of them takes is
// refused here, as kubectl refuses an unknown flag, instead of being read and ignored (`sync --out-dir` would
// otherwise commit to the output branch, the very thing --out-dir is there to avoid).
import { RENDER_LIMITS_HELP } from './renderLimitFlags.ts';

export type SharedParserCommand =
  | 'validate'
  | 'render'
  | 'sync'
  | 'explain'
  | 'plan'
  | 'verify'
  | 'history'
  | 'reschedule';

export interface CommandFlags {
  /** Long names of the flags it takes, besides --help. */
  flags: readonly string[];
  /** The -o formats it prints. */
  outputs: readonly string[];
  usage: string;
}

const LIMITS = ['max-source-files', 'max-output-bytes'];

export const COMMAND_FLAGS: Readonly<Record<SharedParserCommand, CommandFlags>> = {
  validate: {
    flags: ['repo', 'rev', 'source-branch', 'cluster-status', 'output', ...LIMITS],
    outputs: ['text', 'json', 'yaml'],
    usage: `flotilla validate [--repo DIR] [--rev REV | --source-branch main] [--cluster-status FILE] [-o text|json|yaml]
  Without --rev or --source-branch: the commit checked out (a work tree), else main (a bare repository).
${RENDER_LIMITS_HELP}`,
  },
  render: {
    flags: ['repo', 'rev', 'source-branch', 'branch', 'out-dir', 'cluster-status', ...LIMITS],
    outputs: ['text'],
    usage: `flotilla render [--repo DIR] [--rev REV | --source-branch main] [--branch flotilla/rendered | --out-dir DIR]
       [--cluster-status FILE]
${RENDER_LIMITS_HELP}`,
  },
  sync: {
    flags: ['repo', 'source-branch', 'branch', 'cluster-status', ...LIMITS],
    outputs: ['text'],
    usage: `flotilla sync [--repo DIR] [--source-branch main] [--branch flotilla/rendered] [--cluster-status FILE]
${RENDER_LIMITS_HELP}`,
  },
  explain: {
    flags: ['repo', 'rev', 'source-branch', 'branch', 'out-dir', 'cluster-status', 'namespace', 'output', ...LIMITS],
    outputs: ['text', 'json', 'yaml'],
    usage: `flotilla explain <kind>/<name> [-n NS] [--repo DIR] [--rev REV | --source-branch main]
       [--branch flotilla/rendered | --out-dir DIR] [--cluster-status FILE] [-o text|json|yaml]
${RENDER_LIMITS_HELP}`,
  },
  plan: {
    flags: ['repo', 'base', 'head', 'cluster-status', 'output', ...LIMITS],
    outputs: ['text', 'markdown', 'json', 'yaml'],
    usage: `flotilla plan --base REV --head REV [--repo DIR] [--cluster-status FILE] [-o text|markdown|json|yaml]
${RENDER_LIMITS_HELP}`,
  },
  verify: {
    flags: ['repo', 'rev', 'branch', 'output', ...LIMITS],
    outputs: ['text', 'json', 'yaml'],
    usage: `flotilla verify [--repo DIR] [--branch flotilla/rendered] [--rev OUTPUT-REV] [-o text|json|yaml]
${RENDER_LIMITS_HELP}`,
  },
  history: {
    flags: ['repo', 'branch', 'namespace', 'cluster', 'output'],
    outputs: ['text', 'json', 'yaml'],
    usage:
      'flotilla history <kind>/<name> [-n NS] [--cluster C] [--repo DIR] [--branch flotilla/rendered] [-o text|json|yaml]',
  },
  reschedule: {
    flags: ['repo', 'source-branch', 'branch', 'namespace', 'reason'],
    outputs: ['text'],
    usage:
      'flotilla reschedule <kind>/<name> [-n NS] [--reason R] [--repo DIR] [--source-branch main] [--branch B, default main]',
  },
};

/** Why these flags and this -o format are not what `command` takes; undefined when they are. */
export function flagProblem(
  command: SharedParserCommand,
  given: readonly string[],
  output: string,
): string | undefined {
  const { flags, outputs } = COMMAND_FLAGS[command];
  const foreign = [...new Set(given.filter((name) => name !== 'help' && !flags.includes(name)))];
  if (foreign.length > 0)
    return `${command} takes no ${foreign.map((f) => (f === 'output' ? '-o/--output' : `--${f}`)).join(', ')} (see flotilla ${command} --help)`;
  if (!outputs.includes(output))
    return `${command} -o ${output}: use ${outputs.slice(0, -1).join(', ')}${outputs.length > 1 ? ' or ' : ''}${outputs.at(-1)}`;
  return undefined;
}
