// One cluster (PostgreSQL, two replicas of each server, nginx) shared by the tests of one file:
// whether it can run here, the describe title saying why not, and the cluster once started.
import { afterAll, beforeAll } from 'vitest';
import { nginxBinary, startCluster, type Cluster } from '../../scripts/cluster/cluster.mjs';
import { needsPostgres, postgresSkipReason } from './postgres.js';

export interface SharedCluster {
  skip: boolean;
  title: string;
  /** The started cluster (inside tests only). */
  cluster(): Cluster;
}

export function sharedCluster(what: string): SharedCluster {
  const skip = postgresSkipReason() !== null || (nginxBinary() === null && process.env.CI !== 'true');
  const title = nginxBinary() === null ? `${what} [skipped: needs nginx (apt-get install nginx)]` : needsPostgres(what);
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (!skip) cluster = await startCluster({ replicas: 2 });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);
  return {
    skip,
    title,
    cluster: () => {
      if (!cluster) throw new Error('the cluster is not started (used outside a test, or it failed to start)');
      return cluster;
    },
  };
}
