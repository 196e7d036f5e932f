// The fast reliability scenarios of the bad input group (test/faults/scenarios/): none loses an object, each meets its
// expectations.
import { testFastScenarios } from './helpers/fastScenarios.ts';

testFastScenarios('bad input');
