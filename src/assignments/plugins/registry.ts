// Every in-tree plugin, in the order filters run. A cluster reports the first filter it fails.
import type { FilterPlugin, ScorePlugin } from '../framework.ts';
import { apiEnablement } from './apiEnablement.ts';
import { clusterAffinity } from './clusterAffinity.ts';
import { clusterEviction } from './clusterEviction.ts';
import { clusterLocality } from './clusterLocality.ts';
import { spreadConstraint } from './spreadConstraint.ts';
import { taintToleration } from './taintToleration.ts';

export const filterPlugins: readonly FilterPlugin[] = [
  apiEnablement,
  taintToleration,
  clusterAffinity,
  spreadConstraint,
  clusterEviction,
];

/** ClusterAffinity also scores in Karmada, always 0, so it is left out. */
export const scorePlugins: readonly ScorePlugin[] = [clusterLocality];
