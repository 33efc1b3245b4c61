// A throwaway OpenSSH server on a loopback port for the ssh launcher tests: its own host key, an
// authorized client key, and a known_hosts file, all in a temp folder. Reports why when it cannot run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

export const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  port: number;
  user: string;
  identityFile: string;
  /** ssh options that pin the throwaway host key and ignore the user's own ssh config. */
  sshOptions: string[];
  knownHostsFile: string;
  stop(): Promise<void>;
}

function bannerSeen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.setTimeout(2000);
    sock.once('data', (d) => {
      sock.destroy();
      resolve(d.toString().startsWith('SSH-2.0'));
    });
    sock.once('error', () => resolve(false));
    sock.once('timeout', () => {
      sock.destroy();
      resolve(false);
    });
  });
}

/** Start sshd, or return the reason it cannot run here. */
export async function startTestSshd(dir: string, setEnv: Record<string, string> = {}): Promise<TestSshd | { skip: string }> {
  if (!existsSync(SSHD)) return { skip: `${SSHD} is not installed (npm run setup:system installs it)` };
  if (spawnSync('ssh', ['-V']).error) return { skip: 'the ssh client is not installed (npm run setup:system installs it)' };
  for (const key of ['host_key', 'client_key']) {
    const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'switchboard-test', '-f', path.join(dir, key)]);
    if (r.status !== 0) return { skip: `ssh-keygen failed: ${r.stderr?.toString() ?? r.error}` };
  }
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')), { mode: 0o600 });
  // sshd refuses to start without its privilege-separation directory.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const user = os.userInfo().username;
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const config = path.join(dir, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${path.join(dir, 'host_key')}`,
        `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
        'PidFile none',
        'StrictModes no',
        'UsePAM no',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PermitRootLogin prohibit-password',
        `AllowUsers ${user}`,
        'AllowAgentForwarding no',
        'AllowTcpForwarding no',
        'X11Forwarding no',
        'PermitTTY no',
        ...(Object.keys(setEnv).length > 0 ? [`SetEnv ${Object.entries(setEnv).map(([k, v]) => `${k}=${v}`).join(' ')}`] : []),
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let up = false;
    for (let i = 0; i < 100 && child.exitCode === null && !up; i++) {
      up = await bannerSeen(port);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    if (!up) {
      child.kill('SIGKILL');
      await exited;
      lastError = stderr.trim() || 'no SSH banner';
      continue;
    }
    const hostKey = readFileSync(path.join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    const knownHostsFile = path.join(dir, 'known_hosts');
    writeFileSync(knownHostsFile, `[127.0.0.1]:${port} ${hostKey}\n`);
    return {
      port,
      user,
      identityFile: path.join(dir, 'client_key'),
      knownHostsFile,
      sshOptions: ['-F', '/dev/null', '-o', `UserKnownHostsFile=${knownHostsFile}`, '-o', 'GlobalKnownHostsFile=/dev/null', '-o', 'StrictHostKeyChecking=yes'],
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
  return { skip: `sshd could not start on a loopback port: ${lastError}` };
}
