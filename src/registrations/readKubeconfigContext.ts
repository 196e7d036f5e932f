import { readFile } from 'node:fs/promises';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { RegistrationError } from './RegistrationError.ts';

interface Kubeconfig {
  'current-context'?: string;
  contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
  clusters?: { name?: string; cluster?: { server?: string } }[];
}

/**
 * Checks that `file` is a kubeconfig holding `context` (default: its current-context) and that the context's
 * cluster is defined; returns the context name and server. Reads the file only: nothing of it goes into Git.
 */
export async function readKubeconfigContext(
  file: string,
  context: string | undefined,
): Promise<{ context: string; server: string | undefined }> {
  const fail = (why: string, fix: string) =>
    new RegistrationError('BAD_KUBECONFIG', `--kubeconfig ${file}: ${why}; fix: ${fix}`);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw fail(err.code === 'ENOENT' ? 'no such file' : err.message, "pass the path of the member's kubeconfig");
  });
  let config: Kubeconfig | null;
  try {
    config = parseYamlValue(text) as Kubeconfig | null;
  } catch (err) {
    throw fail(`not YAML (${(err as Error).message.split('\n')[0]})`, 'pass a kubeconfig file');
  }
  const contexts = (config?.contexts ?? []).map((c) => c.name).filter((n): n is string => typeof n === 'string');
  const wanted = context ?? config?.['current-context'];
  if (!wanted)
    throw fail(
      'no --context given and the file has no current-context',
      `pass --context, one of: ${contexts.join(', ') || '(none)'}`,
    );
  const found = config?.contexts?.find((c) => c.name === wanted);
  if (!found) throw fail(`no context "${wanted}"`, `pass --context, one of: ${contexts.join(', ') || '(none)'}`);
  const cluster = config?.clusters?.find((c) => c.name === found.context?.cluster);
  if (!cluster)
    throw fail(
      `context "${wanted}" names cluster "${found.context?.cluster ?? ''}", which the file does not define`,
      'repair the kubeconfig (kubectl config view)',
    );
  return { context: wanted, server: cluster.cluster?.server };
}
