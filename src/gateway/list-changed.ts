// notifications/{tools,prompts,resources}/list_changed to the gateway's client, coalesced: a burst of
// upstream changes (several servers becoming ready at once) reaches the client as one notification.
import { errorMessage, type Logger } from '../util/index.js';

export type ListKind = 'tools' | 'prompts' | 'resources';

const METHODS = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
} as const;

export class ListChangedNotifier {
  private readonly pending = new Set<ListKind>();
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly send: (method: (typeof METHODS)[ListKind]) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  changed(...kinds: ListKind[]): void {
    if (this.disposed) return;
    for (const k of kinds) this.pending.add(k);
    this.timer ??= setTimeout(() => this.flush(), 0);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private flush(): void {
    this.timer = undefined;
    for (const kind of this.pending) {
      this.send(METHODS[kind]).catch((err: unknown) => this.logger.debug('gateway: list_changed not delivered', { kind, error: errorMessage(err) }));
    }
    this.pending.clear();
  }
}
