// Change events for 2026-07-28 `subscriptions/listen` streams, each stream hearing only what its
// caller may see: the SDK's serving entry takes the bus its streams subscribe to, and a stream
// subscribes while its request is served, so the caller of that request (kept for the request's
// async context) decides which events reach it. An event names the upstream server it is about.
import { AsyncLocalStorage } from 'node:async_hooks';
import { InMemoryServerEventBus, type AuthInfo, type ServerEventBus } from '@modelcontextprotocol/server';

type ServerEvent = Parameters<ServerEventBus['publish']>[0];

/** What an event is about: the server whose list changed, the resource that was updated. */
export interface EventSubject {
  server?: string;
  uri?: string;
}

/** Which events a caller's streams hear. */
export type EventScope = (subject: EventSubject) => boolean;
/** The scope of a request's caller (the product's view of it). */
export type ScopeOf = (auth: AuthInfo | undefined) => EventScope;

/** Publishes the changes a product sees, each about one server (or none: then every stream hears it). */
export interface ScopedNotifier {
  toolsChanged(server?: string): void;
  promptsChanged(server?: string): void;
  resourcesChanged(server?: string): void;
  resourceUpdated(uri: string, server?: string): void;
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
    const publish = (event: ServerEvent, server: string | undefined) => this.publish(server === undefined ? event : ({ ...event, server } as unknown as ServerEvent));
    return {
      toolsChanged: (server) => publish({ kind: 'tools_list_changed' }, server),
      promptsChanged: (server) => publish({ kind: 'prompts_list_changed' }, server),
      resourcesChanged: (server) => publish({ kind: 'resources_list_changed' }, server),
      resourceUpdated: (uri, server) => publish({ kind: 'resource_updated', uri }, server),
    };
  }
}
