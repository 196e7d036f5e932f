import { isSecret } from '../interpreters/isSecret.ts';
import type { TemplateStatusFile } from '../branches/status/statusFiles.ts';

/**
 * A Secret's status file as get, describe and blame show it: no status, even one a status branch written before
 * Flotilla refused to reflect Secrets still holds.
 */
export function withoutSecretStatus(file: TemplateStatusFile): TemplateStatusFile;
export function withoutSecretStatus(file: TemplateStatusFile | undefined): TemplateStatusFile | undefined;
export function withoutSecretStatus(file: TemplateStatusFile | undefined): TemplateStatusFile | undefined {
  if (!file || !isSecret(file)) return file;
  const { status: _dropped, ...rest } = file;
  return { ...rest, aggregatedStatus: (file.aggregatedStatus ?? []).map(({ status: _s, ...item }) => item) };
}
