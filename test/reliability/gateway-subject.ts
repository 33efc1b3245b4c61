// The gateway as a fault-matrix subject: the built CLI `switchboard serve` over stdio in a temp home
// whose config.toml holds the row's tables, spoken to by an SDK v2 client (read through GatewayWatch).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client, deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { errorMessage } from '../../src/util/index.js';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { waitForExit } from '../support/fixture-processes.js';
import { descendants } from '../support/process-tree.js';
import type { FaultSubject } from './subjects.js';
import { removeTree } from '../support/temp.js';
import { gatewayHome, GatewayWatch, leftBehind } from './gateway-watch.js';

/** How long the gateway may take to close its servers and exit once its stdin ends. */
const EXIT_GRACE_MS = 20_000;

/**
 * The client side of the gateway's stdin/stdout, with the SDK's codec. Unlike the SDK's stdio
 * transport it has no 10 MiB line limit, so a 50 MiB result relayed by the gateway arrives whole.
 */
class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  async start(): Promise<void> {
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (line.trim() === '') return;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (err) {
        this.onerror?.(new Error(`the gateway wrote a line that is not JSON-RPC: ${line.slice(0, 200)}`, { cause: err }));
        return;
      }
      this.onmessage?.(message);
    });
    this.child.once('close', () => this.onclose?.());
    this.child.stdin.on('error', (err) => this.onerror?.(err));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      this.child.stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
  }
}

/** Whether the child exited within `ms`. */
function exitsWithin(child: ChildProcessWithoutNullStreams, ms: number): Promise<boolean> {
  return waitForExit(child, ms).then(
    () => true,
    () => false,
  );
}

/** `switchboard serve` (stdio) as the CLI runs it: config.toml, default client factory, file log. */
export const gatewaySubject: FaultSubject = {
  name: 'gateway',
  async start(tables, options = {}) {
    requireBuild();
    const { home, logFile, env } = await gatewayHome(tables, options, 'sb-rel-gw-');
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: home, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 100_000)));

    const client = new Client({ name: 'fault-matrix', version: '1.0.0' }, { capabilities: {} });
    const watch = new GatewayWatch(client, Object.keys(tables));
    try {
      await client.connect(new ChildStdioTransport(child), { timeout: 30_000 });
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`switchboard serve did not initialize: ${errorMessage(err)}; stderr: ${stderr}`, { cause: err });
    }
    void watch.relist();

    return {
      logFile,
      startup: (server, { skip = 0, timeoutMs = 30_000 } = {}) => watch.startup(server, skip, timeoutMs),
      failureLines: (server) => [...(watch.failures.get(server) ?? [])],
      call: (server, tool, args, { timeoutMs } = {}) => watch.call(server, tool, args, timeoutMs),
      toolCount: (server) => watch.toolCount(server),
      async close() {
        // What runs below the gateway now must be gone once it has exited.
        const below = child.pid === undefined ? [] : await descendants(child.pid);
        await client.close().catch(() => {});
        const exited = await exitsWithin(child, EXIT_GRACE_MS);
        if (!exited) child.kill('SIGKILL');
        await exitsWithin(child, 5_000);
        const left = await leftBehind(below);
        if (options.home === undefined) await removeTree(home);
        if (!exited) throw new Error(`switchboard serve did not exit within ${EXIT_GRACE_MS} ms of its stdin ending; stderr: ${stderr}`);
        if (child.exitCode !== 0) throw new Error(`switchboard serve exited with ${child.exitCode ?? child.signalCode}; stderr: ${stderr}`);
        if (left.length > 0) throw new Error(`left running after switchboard serve exited: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
      },
    };
  },
};
