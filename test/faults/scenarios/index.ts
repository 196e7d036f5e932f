// Every row of the reliability table, in the order it is printed.
import type { Scenario } from '../helpers/frame.ts';
import { badInputScenarios } from './badInput.ts';
import { sourceFaultScenarios } from './sourceFaults.ts';
import { memberFaultScenarios } from './memberFaults.ts';
import { processFaultScenarios } from './processFaults.ts';
import { replicaFaultScenarios } from './replicaFaults.ts';
import { deletionSafetyScenarios } from './deletionSafety.ts';
import { securityScenarios } from './security.ts';
import { tenantScenarios } from './tenant.ts';
import { loadScenarios } from './load.ts';

export const SCENARIOS: readonly Scenario[] = [
  ...badInputScenarios,
  ...sourceFaultScenarios,
  ...memberFaultScenarios,
  ...processFaultScenarios,
  ...replicaFaultScenarios,
  ...deletionSafetyScenarios,
  ...securityScenarios,
  ...tenantScenarios,
  ...loadScenarios,
];
