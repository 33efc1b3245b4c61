// A 2026-07-28 `subscriptions/listen` stream of the SDK v2 client over HTTP, as one caller: what it
// hears (list changes, resource updates) recorded, to wait on or to check that nothing arrived.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Note } from './conn.js';

export interface Listener {
  notes: Note[];
  close(): Promise<void>;
}

export async function listen(url: string, token: string, filter: { resourceSubscriptions?: string[]; toolsListChanged?: boolean; promptsListChanged?: boolean; resourcesListChanged?: boolean }): Promise<Listener> {
  const notes: Note[] = [];
  const client = new Client({ name: 'policy-listener', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  client.fallbackNotificationHandler = async (n) => void notes.push({ method: n.method, params: n.params as Record<string, unknown> | undefined });
  for (const method of ['notifications/resources/updated', 'notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed'] as const) {
    client.setNotificationHandler(method, (n) => void notes.push({ method: n.method, params: n.params as Record<string, unknown> | undefined }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  if (client.getProtocolEra() !== 'modern') throw new Error(`the listener speaks ${client.getProtocolEra()}, not 2026-07-28`);
  const subscription = await client.listen(filter);
  return {
    notes,
    async close() {
      await subscription.close().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}
