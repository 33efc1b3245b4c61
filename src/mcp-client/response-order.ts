// Keeps a request's notifications ahead of its response. The SDK client handles a notification one
// microtask after it arrives but a response at once, so a progress notification read in the same
// chunk as its request's result would find the request finished and be dropped ("unknown token").
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

const isResponse = (message: JSONRPCMessage): boolean => 'id' in message && !('method' in message);

/** Call after `client.connect(transport)`: responses are handed on one microtask later, in order. */
export function deliverResponsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if (isResponse(message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
