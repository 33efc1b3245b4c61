import { describe, expect, it } from 'vitest';
import { renderSections } from './status-html.js';
import type { OpsSnapshot, UpstreamRow } from './ops-types.js';

const NOW = Date.UTC(2026, 11, 6, 12, 0, 0);
const upstream = (row: Partial<UpstreamRow> & Pick<UpstreamRow, 'name' | 'state'>): UpstreamRow => ({ protocol: '2025-11-25', tools: 3, restarts: 0, required: false, ...row });
const snapshot = (upstreams: UpstreamRow[]): OpsSnapshot => ({ title: 't', version: '0', startedAt: NOW - 60_000, now: NOW, upstreams, clients: [], calls: [], threads: [] });

describe('status page: upstreams', () => {
  it('says a server stop_after_idle_sec stopped is stopped when idle, and since when, not merely idle', () => {
    const html = renderSections(snapshot([upstream({ name: 'docs', state: 'ready' }), upstream({ name: 'browser', state: 'idle', stopped_idle_at: NOW - 125_000 }), upstream({ name: 'lazy', state: 'idle' })]));
    expect(html).toContain('<p id="summary">1 of 3 upstreams ready, 1 stopped when idle; 0 clients connected</p>');
    expect(html).toMatch(/browser<\/th><td><span class="badge s-idle">idle<\/span> stopped when idle, 2 min ago<\/td>/);
    expect(html).toMatch(/lazy<\/th><td><span class="badge s-idle">idle<\/span><\/td>/);
  });
});
