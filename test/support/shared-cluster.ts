// One cluster (PostgreSQL, two replicas of each server, nginx) shared by the tests of one file: the
// tags of what it needs (its tests skip where one is missing), and the cluster once started.
import { afterAll, beforeAll } from 'vitest';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster.mjs';
import type { ComponentId } from './system-components.js';
import { isMissing } from './system-tags.js';

/** The system components a cluster with nginx in front needs: the describe's tags. */
export const CLUSTER_TAGS: ComponentId[] = ['postgresql', 'nginx'];

export interface SharedCluster {
  tags: ComponentId[];
  /** The started cluster (inside tests only). */
  cluster(): Cluster;
}

export function sharedCluster(): SharedCluster {
  const skip = CLUSTER_TAGS.some(isMissing);
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (!skip) cluster = await startCluster({ replicas: 2 });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);
  return {
    tags: CLUSTER_TAGS,
    cluster: () => {
      if (!cluster) throw new Error('the cluster is not started (used outside a test, or it failed to start)');
      return cluster;
    },
  };
}
