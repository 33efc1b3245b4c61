// Change events for 2026-07-28 `subscriptions/listen` streams, each stream hearing only what its
// caller may see: the SDK's serving entry takes the bus its streams subscribe to, and a stream
// subscribes while its request is served, so the caller of that request (kept for the request's
// async context) decides which events reach it. An event names the upstream server it is about, and
// the caller it concerns alone (a change on that caller's own upstream connection), if any.
import { AsyncLocalStorage } from 'node:async_hooks';
import { InMemoryServerEventBus, type AuthInfo, type ServerEventBus } from '@modelcontextprotocol/server';

type ServerEvent = Parameters<ServerEventBus['publish']>[0];

/** What an event is about: the server whose list changed, the resource that was updated, the one caller it concerns. */
export interface EventSubject {
  server?: string;
  uri?: string;
  /** The key of the caller whose own connection changed; absent: every caller that sees the server. */
  caller?: string;
}

/** Which events a caller's streams hear. */
export type EventScope = (subject: EventSubject) => boolean;
/** The scope of a request's caller (the product's view of it). */
export type ScopeOf = (auth: AuthInfo | undefined) => EventScope;

/**
 * Publishes the changes a product sees, each about one server (or none: then every stream hears it);
 * `caller`: only that caller's streams hear it.
 */
export interface ScopedNotifier {
  toolsChanged(server?: string, caller?: string): void;
  promptsChanged(server?: string, caller?: string): void;
  resourcesChanged(server?: string, caller?: string): void;
  resourceUpdated(uri: string, server?: string, caller?: string): void;
}

export class ScopedEventBus implements ServerEventBus {
  private readonly inner: InMemoryServerEventBus;
  private readonly scopes = new AsyncLocalStorage<EventScope>();

  constructor(onerror?: (error: Error) => void) {
    this.inner = new InMemoryServerEventBus(onerror);
  }

  /** Runs `serve` (one request) with its caller's scope: a stream it opens hears what that scope lets through. */
  within<T>(scope: EventScope, serve: () => T): T {
    return this.scopes.run(scope, serve);
  }

  publish(event: ServerEvent): void {
    this.inner.publish(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const scope = this.scopes.getStore();
    if (!scope) return this.inner.subscribe(listener);
    return this.inner.subscribe((event) => {
      if (scope(event as EventSubject)) listener(event);
    });
  }

  get notifier(): ScopedNotifier {
    const publish = (event: ServerEvent, server: string | undefined, caller?: string) =>
      this.publish(server === undefined && caller === undefined ? event : ({ ...event, ...(server === undefined ? {} : { server }), ...(caller === undefined ? {} : { caller }) } as unknown as ServerEvent));
    return {
      toolsChanged: (server, caller) => publish({ kind: 'tools_list_changed' }, server, caller),
      promptsChanged: (server, caller) => publish({ kind: 'prompts_list_changed' }, server, caller),
      resourcesChanged: (server, caller) => publish({ kind: 'resources_list_changed' }, server, caller),
      resourceUpdated: (uri, server, caller) => publish({ kind: 'resource_updated', uri }, server, caller),
    };
  }
}
