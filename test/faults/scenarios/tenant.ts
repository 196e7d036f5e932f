// Tenant rows: what a pull request author, with nothing but the YAML in their change, must not be able to do
// (reach files or credentials outside what the change names, change another object's identity, read Secrets
// through status, stop other changes, or make validate/plan run without bound). Each row pushes the attack
// through the same pipeline a reviewer's CI and the reconciler run, and counts what escaped as lost.
import type { Scenario } from '../helpers/frame.ts';
import { tenantBoundsScenarios } from './tenantBounds.ts';
import { tenantCredentialScenarios } from './tenantCredentials.ts';
import { tenantIdentityScenarios } from './tenantIdentity.ts';
import { tenantSecretScenarios } from './tenantSecrets.ts';

export const tenantScenarios: readonly Scenario[] = [
  ...tenantCredentialScenarios,
  ...tenantIdentityScenarios,
  ...tenantSecretScenarios,
  ...tenantBoundsScenarios,
];
