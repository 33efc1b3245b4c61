// Types of cluster.mjs for the TypeScript tests and the load test that start a cluster.
import type { TestPostgres } from '../../test/support/postgres.js';

export declare const REPO: string;
export declare function nginxBinary(): string | null;

export interface Replica {
  readonly name: string;
  readonly kind: 'agent' | 'gateway';
  readonly home: string;
  readonly url: string;
  readonly port: number;
  readonly pid: number | undefined;
  readonly alive: boolean;
  start(): Promise<Replica>;
  /** SIGKILL by default: no shutdown, no lease released. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export interface EchoModel {
  url: string;
  stats: { requests: number; hanging: number };
  close(): Promise<void>;
}

export interface ClusterOptions {
  replicas?: number;
  agents?: number;
  gateways?: number;
  agentToml?: string;
  gatewayToml?: string;
  modelUrl?: string;
  token?: string;
  env?: Record<string, string>;
  args?: { agent?: string[]; gateway?: string[] };
  nginx?: boolean;
  log?: (line: string) => void;
}

export interface Cluster {
  root: string;
  postgres: TestPostgres;
  databaseUrl: string;
  modelUrl: string;
  echo: EchoModel | null;
  token: string;
  agents: Replica[];
  gateways: Replica[];
  agentUrl: string | null;
  gatewayUrl: string | null;
  stop(): Promise<void>;
}

export declare function startCluster(options?: ClusterOptions): Promise<Cluster>;
