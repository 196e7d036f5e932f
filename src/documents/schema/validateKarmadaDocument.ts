// One call for a whole Karmada document: structure (SCHEMAS), Karmada's admission rules and, for a
// Cluster, inline credentials. Issues come back in that order, every one of them. A policy is checked in the form
// karmada-apiserver stores it (storedPolicy), as Karmada's validation sees it.
import { KARMADA_KINDS, SCHEMAS } from './karmadaSchemas.ts';
import type { KarmadaKind } from './karmadaSchemas.ts';
import { isPlainObject, validateAgainstSchema } from './validateAgainstSchema.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';
import { validateKarmadaRules } from './validateKarmadaRules.ts';
import type { KarmadaRuleOptions } from './validateKarmadaRules.ts';
import { findInlineCredentials } from './findInlineCredentials.ts';
import { storedPolicy } from '../storedPolicy.ts';
import { validateMetadataRules } from './validateObjectMeta.ts';

export function isKarmadaKind(kind: unknown): kind is KarmadaKind {
  return typeof kind === 'string' && (KARMADA_KINDS as readonly string[]).includes(kind);
}

export function validateKarmadaDocument(
  kind: KarmadaKind,
  written: unknown,
  options: KarmadaRuleOptions = {},
): SchemaIssue[] {
  const value = storedPolicy(kind, written);
  const credentials = kind === 'Cluster' ? findInlineCredentials(value) : [];
  const secretPaths = new Set(credentials.map((issue) => JSON.stringify(issue.path)));
  // A `token:` under spec is both an unknown field and a leaked secret; the secret is what matters.
  const structural = validateAgainstSchema(value, SCHEMAS[kind]).filter(
    (issue) => !(issue.code === 'UNKNOWN_FIELD' && secretPaths.has(JSON.stringify(issue.path))),
  );
  // The schema already names an owner reference's missing uid: one problem, one message.
  const structuralPaths = new Set(structural.map((issue) => JSON.stringify(issue.path)));
  const metadata = (isPlainObject(value) ? validateMetadataRules(value) : []).filter(
    (issue) => !structuralPaths.has(JSON.stringify(issue.path)),
  );
  return [...structural, ...metadata, ...validateKarmadaRules(kind, value, options), ...credentials];
}
