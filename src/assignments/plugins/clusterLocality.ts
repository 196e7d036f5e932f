// ClusterLocality score: 100 for clusters the previous result already targets, so they sort first.
import { MAX_CLUSTER_SCORE, MIN_CLUSTER_SCORE, previouslyTargeted, type ScorePlugin } from '../framework.ts';

export const clusterLocality: ScorePlugin = {
  name: 'ClusterLocality',
  score(request, cluster) {
    if (request.previous.length === 0) return MIN_CLUSTER_SCORE;
    return previouslyTargeted(request, cluster.metadata.name) ? MAX_CLUSTER_SCORE : MIN_CLUSTER_SCORE;
  },
};
