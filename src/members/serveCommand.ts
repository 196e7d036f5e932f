import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors/UsageError.ts';
import { parseNodeSpecs } from './parseNodeSpecs.ts';
import { startMember } from './startMember.ts';
import { writeKubeconfig } from './writeKubeconfig.ts';

export const SERVE_USAGE = `usage: flotilla member serve --name NAME --data-dir DIR [--port PORT] [--host 127.0.0.1]
       [--nodes COUNT | name[:cpu[:memory[:pods]]],...] [--ready-delay MS] [--token TOKEN] [--kubeconfig FILE]`;

/**
 * `flotilla member serve`: runs one member cluster in the foreground, writes its kubeconfig (default
 * <data-dir>/kubeconfig), prints that path, and stops cleanly (state flushed) on SIGINT or SIGTERM.
 * Resolves when the member has stopped; rejects on bad arguments.
 */
export async function runMemberServe(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      nodes: { type: 'string' },
      'ready-delay': { type: 'string' },
      token: { type: 'string' },
      kubeconfig: { type: 'string' },
    },
    strict: true,
  });
  if (!values.name || !values['data-dir']) throw new UsageError(`--name and --data-dir are required; ${SERVE_USAGE}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new UsageError(`--port must be 0..65535, got "${values.port}"`);
  const dataDir = path.resolve(values['data-dir']);
  const member = await startMember({
    name: values.name,
    dataDir,
    ...(port !== undefined ? { port } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(values.nodes ? { nodes: parseNodeSpecs(values.nodes, values.name) } : {}),
    ...(values['ready-delay'] ? { readyDelayMs: Number(values['ready-delay']) } : {}),
    ...(values.token ? { token: values.token } : {}),
  });
  const kubeconfig = path.resolve(values.kubeconfig ?? path.join(dataDir, 'kubeconfig'));
  writeKubeconfig(kubeconfig, [member]);
  out(`member ${member.name} serving on ${member.url}`);
  out(`kubeconfig: ${kubeconfig}`);
  await new Promise<void>((resolve) => {
    const shutdown = () => {
      process.off('SIGINT', shutdown);
      process.off('SIGTERM', shutdown);
      void member.stop().then(resolve);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
}
