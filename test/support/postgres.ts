// A real, throwaway PostgreSQL for tests and `npm run cluster`: a fresh cluster in a temporary folder
// (a copy of one initdb made once per machine and PostgreSQL build, kept under the system's temporary
// folder: initdb costs about 1 CPU-second, the copy a third of that), the
// server on a loopback port (no Unix socket), trust auth for loopback only, removed on stop. As root
// it runs as the `postgres` user (initdb refuses root). It dies with its parent (setpriv --pdeathsig).
// Node built-ins and free-port.mjs only: scripts/cluster.mjs imports this file directly (Node strips the types).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, renameSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

/** The folder holding initdb and postgres: $SWITCHBOARD_PG_BIN, Debian's /usr/lib/postgresql/<n>/bin, or PATH. */
export function postgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.SWITCHBOARD_PG_BIN) candidates.push(process.env.SWITCHBOARD_PG_BIN);
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join('/usr/lib/postgresql', v, 'bin'));
  } catch {
    // not Debian's layout
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter));
  for (const dir of candidates) {
    try {
      accessSync(path.join(dir, 'initdb'), constants.X_OK);
      accessSync(path.join(dir, 'postgres'), constants.X_OK);
      return dir;
    } catch {
      // keep looking
    }
  }
  return null;
}

/** What is said when postgresBinDir() finds nothing. */
export const POSTGRES_NOT_FOUND = 'initdb/postgres not found (looked in $SWITCHBOARD_PG_BIN, /usr/lib/postgresql/*/bin, PATH)';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** argv that runs `cmd` as the postgres user when we are root, dying with this process. */
function asServerUser(cmd: string, args: string[]): [string, string[]] {
  const pdeath = ['--pdeathsig', 'SIGKILL'];
  if (isRoot) return ['setpriv', [...pdeath, '--reuid=postgres', '--regid=postgres', '--init-groups', '--', cmd, ...args]];
  return existsSync('/usr/bin/setpriv') ? ['setpriv', [...pdeath, '--', cmd, ...args]] : [cmd, args];
}

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** A fresh database on this server (its own schema state), as a URL. */
  createDatabase(name: string): Promise<string>;
  /** Stop the server (fast shutdown: committed data stays), keeping its data; `start()` brings it back on the same port. */
  stopServer(): Promise<void>;
  /** Start it again after stopServer(). */
  start(): Promise<void>;
  /** Stop it and remove its folder. */
  stop(): Promise<void>;
}

let serverUser: { uid: number; gid: number } | undefined;

/** A temporary folder the server's user owns (as root: the `postgres` user, as initdb refuses root). */
async function serverOwnedTemp(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  if (isRoot) {
    serverUser ??= { uid: Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim()), gid: Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim()) };
    await chown(dir, serverUser.uid, serverUser.gid);
  }
  return dir;
}

const INITDB_ARGS = ['-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'];

/**
 * The data folder of a cluster initdb made for these binaries and arguments, made once (by whichever
 * process asks first: made aside, then renamed into place, so processes racing each other all get a
 * whole one) and copied by every server after. Never started itself.
 */
async function clusterTemplate(bin: string): Promise<string> {
  const key = createHash('sha256').update(`${bin}\0${INITDB_ARGS.join(' ')}\0${process.getuid?.() ?? ''}`).digest('hex').slice(0, 16);
  const template = path.join(os.tmpdir(), `sb-pg-template-${key}`);
  if (existsSync(path.join(template, 'PG_VERSION'))) return template;
  const aside = await serverOwnedTemp('sb-pg-initdb-');
  try {
    const [initCmd, initArgs] = asServerUser(path.join(bin, 'initdb'), ['-D', path.join(aside, 'data'), ...INITDB_ARGS]);
    const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
    try {
      renameSync(path.join(aside, 'data'), template);
    } catch (error) {
      if (!existsSync(path.join(template, 'PG_VERSION'))) throw error; // else another process made it first
    }
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
  return template;
}

/** A fresh cluster (a copy of the initdb template) in a temporary folder, started on a loopback port. Throws when the binaries are missing. */
export async function startPostgres(options: { port?: number; log?: (line: string) => void } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (bin === null) throw new Error(`cannot start PostgreSQL: ${POSTGRES_NOT_FOUND}; install it with npm run setup:system`);
  const root = await serverOwnedTemp('sb-pg-');
  const dataDir = path.join(root, 'data');
  const copied = spawnSync('cp', ['-a', await clusterTemplate(bin), dataDir], { encoding: 'utf8' });
  if (copied.status !== 0) {
    await rm(root, { recursive: true, force: true });
    throw new Error(`copying the initdb template failed (${copied.status}): ${copied.stderr}`);
  }
  // Only loopback may connect; trust is safe there for a throwaway server.
  await writeFile(path.join(dataDir, 'pg_hba.conf'), 'host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n');
  const port = options.port ?? (await freePort());
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const args = ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', '', '-c', 'fsync=off', '-c', 'max_connections=200', '-c', 'logging_collector=off'];
    const [cmd, argv] = asServerUser(path.join(bin, 'postgres'), args);
    const proc = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    let tail = '';
    await new Promise<void>((resolve, reject) => {
      proc.stderr!.setEncoding('utf8');
      proc.stderr!.on('data', (chunk: string) => {
        tail = (tail + chunk).slice(-4000);
        for (const line of chunk.split('\n')) if (line) options.log?.(line);
        if (tail.includes('database system is ready to accept connections')) resolve();
      });
      proc.once('exit', (code, signal) => reject(new Error(`postgres exited (${code ?? signal}) before accepting connections: ${tail}`)));
      proc.once('error', reject);
    });
  };

  const stopServer = async (): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGINT'); // fast shutdown: clients are disconnected, committed data is kept
    await exited;
  };

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await start();
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    dataDir,
    start,
    stopServer,
    async createDatabase(name: string): Promise<string> {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name ${name} must be lower-case letters, digits and _`);
      const psql = path.join(bin, 'psql');
      const made = spawnSync(psql, [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', `create database ${name}`], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`create database ${name} failed: ${made.stderr}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop(): Promise<void> {
      await stopServer();
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}
