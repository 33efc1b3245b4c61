// The live startup lines of `mcp status`: one per server, its state and the time its first start took.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusProgress } from './mcp-status-view.js';

afterEach(() => {
  vi.useRealTimers();
});

/** The last frame drawn: the text after the last cursor-up sequence. */
function lastFrame(written: string[]): string[] {
  const text = written.join('');
  return text.slice(text.lastIndexOf('\x1b[J') + 3).trimEnd().split('\n');
}

describe('StatusProgress', () => {
  it('keeps a failed server\'s line and elapsed time when its background retry starts', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const written: string[] = [];
    const progress = new StatusProgress({ write: (t) => void written.push(t), isTTY: true }, () => 0);
    const line = (name: string) => lastFrame(written).find((l) => l.includes(name));
    progress.start(['ghost', 'slow']);
    vi.advanceTimersByTime(300);
    progress.onEvent({ type: 'mcp_startup_update', server: 'ghost', status: { state: 'failed', error: 'MCP client for `ghost` failed to start\nmore' } });
    vi.advanceTimersByTime(200);
    expect(line('ghost')).toBe('✗ ghost  failed      0.3s  MCP client for `ghost` failed to start');
    // The manager retries a failed server in the background (docs/servers-and-catalog.md).
    progress.onEvent({ type: 'mcp_startup_update', server: 'ghost', status: { state: 'starting' } });
    vi.advanceTimersByTime(500);
    progress.stop();
    expect(line('ghost')).toBe('✗ ghost  failed      0.3s  MCP client for `ghost` failed to start');
    expect(line('slow')).toMatch(/^. slow {3}starting {4}1\.0s$/);
  });
});
