// The status page in real headless browsers (Debian's chromium, and its firefox-esr over WebDriver
// BiDi, through puppeteer-core; nothing downloads a browser): the token is asked once (by keyboard)
// and kept for the tab, a failed upstream's error text shows, and the page follows an upstream's crash
// and its recovery within 2 s. Screenshots of each browser are saved under test-artifacts/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { UPSTREAM_FIXTURE } from '../gateway/gateway-harness.js';
import { spawnServe, type ServeProcess } from '../gateway/serve-process.js';
import { REPO } from '../support/cli.js';
import { requireBuild } from '../support/mcp-server-harness.js';
import { CHROMIUM, FIREFOX } from '../support/system-components.js';
import { removeTree, tempDir } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

interface TestBrowser {
  name: string;
  /** The system component (test tag): where it is missing the browser's tests skip. */
  tag: 'chromium' | 'firefox';
  executablePath: string;
  /** The screenshots' file name stem. */
  shots: string;
  launch(executablePath: string): Promise<Browser>;
}

const BROWSERS: TestBrowser[] = [
  {
    name: 'Chromium',
    tag: 'chromium',
    executablePath: CHROMIUM,
    shots: 'status-page',
    launch: (executablePath) => puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] }),
  },
  {
    name: 'Firefox',
    tag: 'firefox',
    executablePath: FIREFOX,
    shots: 'status-page-firefox',
    launch: (executablePath) => puppeteer.launch({ browser: 'firefox', executablePath, headless: true }),
  },
];
const TOKEN = 'status-page-test-token-abcdefgh';
const BROKEN_TEXT = 'cannot reach the docs index (exit on purpose)';
const ARTIFACTS = path.join(REPO, 'test-artifacts');

interface UpstreamState {
  name: string;
  state: string;
  restarts: number;
  error?: string;
}

for (const testBrowser of BROWSERS) describe(`the status page in headless ${testBrowser.name}`, { tags: [testBrowser.tag] }, () => {
  let home: string;
  let pidFile: string;
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let client: Client | undefined;

  const upstreams = async (): Promise<UpstreamState[]> => {
    const res = await fetch(`${origin}/ops/status`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    return ((await res.json()) as { upstreams: UpstreamState[] }).upstreams;
  };
  const stateOf = async (name: string) => (await upstreams()).find((u) => u.name === name);
  // Browser-side expressions (this project's TypeScript has no DOM types): the upstream row of a
  // server, its state badge, and whether an element is shown.
  const row = (name: string) => `[...document.querySelectorAll('#live tbody tr')].find((tr) => tr.querySelector('th')?.textContent === ${JSON.stringify(name)})`;
  const rowText = (name: string) => page.evaluate(`${row(name)}?.textContent ?? ''`) as Promise<string>;
  const badgeIs = (name: string, state: string) => `${row(name)}?.querySelector('.badge')?.textContent === ${JSON.stringify(state)}`;
  const shown = (selector: string) => `(() => { const e = document.querySelector(${JSON.stringify(selector)}); return e !== null && getComputedStyle(e).display !== 'none'; })()`;

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-status-page-');
    const work = path.join(home, 'work');
    await mkdir(work);
    pidFile = path.join(home, 'up.pid');
    const node = JSON.stringify(process.execPath);
    await writeFile(
      path.join(home, 'config.toml'),
      [
        'mcp_restart_initial_delay_ms = 100',
        'mcp_restart_max_delay_ms = 200',
        '[mcp_servers.docs]',
        `command = ${node}`,
        `args = ["-e", ${JSON.stringify(`console.error(${JSON.stringify(BROKEN_TEXT)}); process.exit(3)`)}]`,
        '[mcp_servers.files]',
        `command = ${node}`,
        `args = [${JSON.stringify(UPSTREAM_FIXTURE)}]`,
        `env = { GW_NAME = "files", GW_PID_FILE = ${JSON.stringify(pidFile)} }`,
        '',
      ].join('\n'),
    );
    serve = await spawnServe(['--http', '127.0.0.1:0'], { env: { PATH: process.env.PATH, HOME: home, SWITCHBOARD_HOME: home, SWITCHBOARD_MCP_TOKEN: TOKEN }, cwd: work });
    origin = new URL(serve.url).origin;
    browser = await testBrowser.launch(testBrowser.executablePath);
    page = await browser.newPage();
    await page.setViewport({ width: 1366, height: 820 });
  });

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('asks for the token once, then shows each upstream with a failed one\'s error text', async () => {
    await page.goto(`${origin}/`);
    await page.waitForFunction(shown('#token-form'));
    // Keyboard only: the token field has the focus; Enter submits.
    expect(await page.evaluate('document.activeElement?.id')).toBe('token');
    await page.keyboard.type(TOKEN);
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('#h-upstreams') !== null`);
    expect(await page.evaluate(shown('#token-form'))).toBe(false);
    expect(await page.evaluate(`sessionStorage.getItem('switchboard-ops-token')`)).toBe(TOKEN);

    await waitFor(async () => (await stateOf('files'))?.state === 'ready', 'files ready');
    await page.waitForFunction(`document.querySelector('#live')?.textContent?.includes(${JSON.stringify(BROKEN_TEXT)})`, { timeout: 5_000 });
    const docs = await rowText('docs');
    expect(docs).toMatch(/failed|starting/);
    expect(docs).toContain(BROKEN_TEXT);
    await page.waitForFunction(badgeIs('files', 'ready'), { timeout: 2_000 });

    // A client connects and calls: the clients table and the recent calls (latency, outcome) follow.
    client = new Client({ name: 'status-page-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    await client.callTool({ name: 'mcp__files__echo', arguments: { text: 'hello' } });
    await client.callTool({ name: 'mcp__files__nope', arguments: {} }).catch(() => {});
    await page.waitForFunction(`document.querySelector('#h-calls')?.parentElement?.textContent?.includes('mcp__files__nope')`, { timeout: 2_000 });
    const calls = (await page.evaluate(`document.querySelector('#h-calls').parentElement.textContent`)) as string;
    expect(calls).toMatch(/tools\/callmcp__files__echo[\d.]+ m?sok/);
    expect(calls).toMatch(/tools\/callmcp__files__nope[\d.]+ m?serror -32602/);
    expect(await page.evaluate(`document.querySelector('#h-clients').parentElement.querySelectorAll('tbody tr').length`)).toBe(1);

    // A reload keeps the token for the tab: no second prompt.
    await page.reload();
    await page.waitForFunction(`document.querySelector('#h-upstreams') !== null`);
    expect(await page.evaluate(shown('#token-form'))).toBe(false);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, `${testBrowser.shots}.png`), fullPage: true });
  });

  it('shows a crash and the recovery, each within 2 s', async () => {
    const pid = Number(await readFile(pidFile, 'utf8'));
    process.kill(pid, 'SIGKILL');
    const crashed = Date.now();
    await page.waitForFunction(`!(${badgeIs('files', 'ready')}) && /stopped after being ready/.test(${row('files')}?.textContent ?? '')`, { timeout: 2_000 });
    expect(Date.now() - crashed).toBeLessThan(2_000);

    // Recovery: from the moment the gateway reports it ready again, the page has 2 s.
    await waitFor(async () => {
      const s = await stateOf('files');
      return s?.state === 'ready' && s.restarts === 1;
    }, 'files restarted and ready', 15_000);
    const recovered = Date.now();
    await page.waitForFunction(badgeIs('files', 'ready'), { timeout: 2_000 });
    expect(Date.now() - recovered).toBeLessThan(2_000);
    const cells = (await page.evaluate(`[...${row('files')}.querySelectorAll('td')].map((td) => td.textContent)`)) as string[];
    // State, protocol, tools, startup, restarts, and the failure it recovered from.
    expect(cells[0]).toBe('ready');
    expect(cells[4]).toBe('1');
    expect(cells[5]).toMatch(/^earlier: MCP server `files` stopped after being ready/);
    await page.screenshot({ path: path.join(ARTIFACTS, `${testBrowser.shots}-recovered.png`), fullPage: true });
  });
});
