/**
 * core/v1 Secret. Its values must never reach Git from a member (status reflection, aggregation, health rules)
 * nor be printed by get/describe: the status branch is readable by everyone who can read the config repo.
 */
export function isSecret(o: { apiVersion?: unknown; kind?: unknown } | undefined): boolean {
  return o?.apiVersion === 'v1' && o.kind === 'Secret';
}
