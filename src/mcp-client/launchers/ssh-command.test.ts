import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRemoteCommand } from './remote-command.js';
import { buildRemoteScript, buildSshArgv, encodePreambleValue, shellQuote } from './ssh-command.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-sshcmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Strings a shell word or an environment value can hold: anything but NUL.
const shellText = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0') && Buffer.from(s, 'utf8').toString('utf8') === s);

describe('shell quoting and the value preamble, through a real /bin/sh', () => {
  it('shellQuote keeps every word intact', () => {
    fc.assert(
      fc.property(fc.array(shellText, { minLength: 1, maxLength: 4 }), (words) => {
        const r = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${words.map(shellQuote).join(' ')}`]);
        expect(r.stdout.toString('utf8').split('\0').slice(0, -1)).toEqual(words);
      }),
      { numRuns: 60 },
    );
  });

  it('preamble values decode to exactly what was sent', () => {
    fc.assert(
      fc.property(shellText, (value) => {
        const script = `IFS= read -r v; v=$(printf '%bx' "$v"); v=\${v%x}; printf '%s' "$v"`;
        const r = spawnSync('/bin/sh', ['-c', script], { input: `${encodePreambleValue(value)}\n` });
        expect(r.stdout.toString('utf8')).toBe(value);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the remote script (run locally)', () => {
  it('changes directory, builds the environment, and hands stdin to the server', () => {
    const cmd = buildRemoteCommand(
      {
        serverName: 's',
        command: 'sh',
        args: ['-c', 'printf "%s|" "$(pwd)" "$0" "$SENT" "$FROM_REMOTE" "${NOT_NAMED-unset}" "$PATH"; cat', "it's $HOME"],
        env: { SENT: "a'b\nc\\n" },
        envVars: [{ name: 'FROM_REMOTE', source: 'remote' }],
        cwd: dir,
      },
      {},
    );
    const { script, preamble } = buildRemoteScript(cmd);
    expect(script).not.toContain("a'b");
    const r = spawnSync('/bin/sh', ['-c', script], {
      input: `${preamble}rest of stdin`,
      env: { FROM_REMOTE: 'remote', NOT_NAMED: 'secret', PATH: process.env.PATH },
    });
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe(`${dir}|it's $HOME|a'b\nc\\n|remote|unset|${process.env.PATH}|rest of stdin`);
  });

  it('exits 126 when the directory is missing', () => {
    const { script } = buildRemoteScript({ argv: ['true'], cwd: path.join(dir, 'nope'), env: {}, inheritEnv: [] });
    expect(spawnSync('/bin/sh', ['-c', script]).status).toBe(126);
  });

  it('refuses remote names the shell cannot expand', () => {
    expect(() => buildRemoteScript({ argv: ['true'], cwd: '/', env: {}, inheritEnv: ['NOT-A-NAME'] })).toThrow('not a shell variable name');
  });
});

describe('buildSshArgv', () => {
  it('disables tty, prompts and forwarding, and puts the host after --', () => {
    const argv = buildSshArgv({ id: 'b', type: 'ssh', host: 'box', user: 'me', port: 2222, identity_file: '~/.ssh/id' }, 'echo hi', { home: '/home/me' });
    expect(argv.slice(0, 3)).toEqual(['-T', '-o', 'BatchMode=yes']);
    expect(argv).toEqual(expect.arrayContaining(['ForwardAgent=no', 'ForwardX11=no', 'ClearAllForwardings=yes']));
    expect(argv.join(' ')).toContain('-p 2222 -l me -i /home/me/.ssh/id -o IdentitiesOnly=yes');
    expect(argv.slice(-3)).toEqual(['--', 'box', "exec /bin/sh -c 'echo hi'"]);
    expect(() => buildSshArgv({ id: 'b', type: 'ssh', host: '-oProxyCommand=x', user: null, port: null, identity_file: null }, 'true')).toThrow('must not start with "-"');
  });
});
