// The fast reliability scenarios of the load group (test/faults/scenarios/): none loses an object, each meets its
// expectations.
import { testFastScenarios } from './helpers/fastScenarios.ts';

testFastScenarios('load');
