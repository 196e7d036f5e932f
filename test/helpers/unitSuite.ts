import type { Test } from 'uvu';
import { configureToolSearch, toolSearch, type ToolSearch } from '../../src/units/unitTools.ts';
import type { ConfigRepo } from './fleet.ts';

/**
 * For a suite whose tests render units: the list its config repos go in, and the tool search as the suite found it
 * (tests point it elsewhere and put it back with `original`). After the suite, every repo is removed and the tool
 * search restored, whichever test failed.
 */
export function unitSuite(suite: Test): { repos: ConfigRepo[]; original: ToolSearch } {
  const repos: ConfigRepo[] = [];
  const original = toolSearch();
  suite.after(() => {
    configureToolSearch(original);
    for (const r of repos) r.cleanup();
  });
  return { repos, original };
}
