import { runCommand, type RunOptions } from '../../src/commands/runCommand.ts';

/** `flotilla run`'s options as cli.ts gives them with only --repo set, the listener off and nothing printed. */
export function runOptions(extra: Partial<RunOptions> = {}): RunOptions {
  return {
    repo: '/nonexistent',
    sourceBranch: 'main',
    credentialsDir: undefined,
    kubeconfig: undefined,
    listen: 'off',
    resync: '0',
    fetchSchedule: '* * * * *',
    webhookSecretEnv: undefined,
    webhookSecret: undefined,
    mirrorDir: undefined,
    cwd: '/',
    out: () => {},
    err: () => {},
    stopSignal: Promise.resolve(),
    ...extra,
  };
}

/** The message `flotilla run` refuses these options with; '' when it ran and stopped instead. */
export function runRefusal(extra: Partial<RunOptions> = {}): Promise<string> {
  return runCommand(runOptions(extra)).then(
    () => '',
    (e: unknown) => (e as Error).message,
  );
}
