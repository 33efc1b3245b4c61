import { describe, expect, it } from 'vitest';
import { capOutputText, MAX_MCP_OUTPUT_BYTES, mcpResultForModel } from './mcp-tools.js';

describe('mcpResultForModel', () => {
  it('passes results under 1 MiB through unchanged', () => {
    expect(mcpResultForModel({ content: [{ type: 'text', text: 'hi' }] })).toEqual({ output: JSON.stringify([{ type: 'text', text: 'hi' }]), success: true });
    expect(mcpResultForModel({ content: [], structuredContent: { a: 1 }, isError: true })).toEqual({ output: '{"a":1}', success: false });
  });

  it('truncates text over 1 MiB with a note instead of sending it whole', () => {
    const big = 'x'.repeat(3 * MAX_MCP_OUTPUT_BYTES);
    const out = mcpResultForModel({ content: [{ type: 'text', text: big }] }).output as string;
    expect(Buffer.byteLength(out)).toBeLessThan(MAX_MCP_OUTPUT_BYTES + 200);
    expect(out).toMatch(/\[\.\.\. MCP tool output truncated: \d+ of \d+ bytes omitted \(limit 1048576 bytes\) \.\.\.\]$/);
  });

  it('caps the text items of image results and keeps the images', () => {
    const out = mcpResultForModel({
      content: [
        { type: 'text', text: 'y'.repeat(2 * MAX_MCP_OUTPUT_BYTES) },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    }).output as { type: string; text?: string; image_url?: string }[];
    expect(out[0]!.text!.length).toBeLessThan(MAX_MCP_OUTPUT_BYTES + 200);
    expect(out[1]).toEqual({ type: 'input_image', image_url: 'data:image/png;base64,AAAA' });
  });

  it('cuts on a character boundary', () => {
    const text = capOutputText('é'.repeat(10), 5);
    expect(text.startsWith('éé\n')).toBe(true);
  });
});
