import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';

export interface KubeconfigMember {
  name: string;
  url: string;
  caPem: string;
  token: string;
}

/**
 * The kubeconfig text for some members, shaped like local-up-karmada's `members.config`: one context per
 * member, where cluster, user and context all carry the member's name. The first member is current.
 */
export function renderKubeconfig(members: KubeconfigMember[], currentContext = members[0]?.name ?? ''): string {
  return stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: members.map((m) => ({
        cluster: { 'certificate-authority-data': Buffer.from(m.caPem).toString('base64'), server: m.url },
        name: m.name,
      })),
      contexts: members.map((m) => ({ context: { cluster: m.name, user: m.name }, name: m.name })),
      'current-context': currentContext,
      preferences: {},
      users: members.map((m) => ({ name: m.name, user: { token: m.token } })),
    },
    GO_YAML_STRINGIFY_OPTIONS,
  );
}

/** Writes the kubeconfig with mode 0600 (it holds bearer tokens). */
export function writeKubeconfig(file: string, members: KubeconfigMember[], currentContext?: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, renderKubeconfig(members, currentContext), { mode: 0o600 });
}
