// A TCP port on 127.0.0.1 that was free a moment ago, for tests that must name a port before a process
// listens on it (a child told its port, a fixed OAuth callback port, a database or sshd started on it).
// Plain JavaScript with Node built-ins only, so that what Node runs itself imports it too (postgres.ts and
// scripts/conformance-targets.ts with their types stripped, scripts/cluster/cluster.mjs). Types: free-port.d.mts.
import { createServer } from 'node:net';

/**
 * Picked from below the system's ephemeral range (32768 up on Linux, 49152 up on macOS): `listen(0)`
 * and every outgoing connection draw from that range, so another test could take a port from it
 * between this probe and its use (a replica failed with EADDRINUSE that way).
 */
export async function freePort() {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('freePort: 100 random ports in 20000-31999 on 127.0.0.1 were all taken');
}

function canListen(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
