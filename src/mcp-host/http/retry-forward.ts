// Retries of 2026-07-28 input-required requests across replicas: the waiting work lives in the process
// that minted the requestState, so a retry that lands on another replica is forwarded (same headers,
// bearer token included) to the holder named in the sealed state, and the holder's answer streamed back.
// Requests about a task of the tasks extension (tasks/get, tasks/update, tasks/cancel) go the same way
// to the replica their task id names.
import type http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { errorMessage, type Logger } from '../../util/index.js';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { callerOf } from '../access/caller.js';
import type { StateBinding } from '../flows/input-flows.js';
import { TASK_METHODS } from '../flows/task-ids.js';
import { requestSubject } from '../rpc/request-subject.js';

/** Who holds the work a retry belongs to (InputFlows); the state is opened, so the holder is one this cluster sealed. */
export interface RetryHolders {
  listeningAt(origin: string): void;
  holderElsewhere(state: string, method: string, binding: StateBinding): Promise<string | undefined>;
  /** The replica holding the task a task id names, when another one (TaskIds). */
  taskHolderElsewhere?(taskId: string): Promise<string | undefined>;
}

/** Marks a forwarded retry: its receiver serves it itself, whatever the state says (no forwarding loops). */
export const FORWARDED_HEADER = 'x-switchboard-forwarded-retry';
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', FORWARDED_HEADER]);

/** The origin other processes reach a listener on: an unspecified address is reached on loopback. */
export function internalOrigin(host: string, port: number): string {
  const reach = host === '' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}

/**
 * Forwards `body` to the replica holding its waiting work when that is another replica; true when
 * answered that way. False (serve it here) when it is no retry, held here, already forwarded once, or
 * the holder cannot be reached: the local round then says the request is no longer waiting.
 */
export async function forwardRetry(holders: RetryHolders, req: http.IncomingMessage, res: http.ServerResponse, body: unknown, logger: Logger): Promise<boolean> {
  if (req.headers[FORWARDED_HEADER] !== undefined) return false;
  const message = body as { method?: unknown; params?: { requestState?: unknown; taskId?: unknown } } | null;
  if (typeof message?.method !== 'string') return false;
  const state = message.params?.requestState;
  const taskId = message.params?.taskId;
  const holder =
    typeof state === 'string'
      ? await holders.holderElsewhere(state, message.method, { caller: callerOf((req as http.IncomingMessage & { auth?: AuthInfo }).auth)?.key ?? 'anonymous', subject: requestSubject(message.params) ?? '' })
      : TASK_METHODS.has(message.method) && typeof taskId === 'string'
        ? await holders.taskHolderElsewhere?.(taskId)
        : undefined;
  if (holder === undefined) return false;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  headers.set(FORWARDED_HEADER, '1');
  // The client going away ends the forwarded round too (the holder then gives the work up, as it would locally).
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  let answer: Response;
  try {
    answer = await fetch(new URL(req.url ?? '/', holder), { method: 'POST', headers, body: JSON.stringify(body), signal: gone.signal });
  } catch (err) {
    logger.debug('the replica holding a retried request cannot be reached', { holder, error: errorMessage(err) });
    return false;
  }
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
  });
  res.writeHead(answer.status, out);
  if (!answer.body) {
    res.end();
    return true;
  }
  await new Promise<void>((resolve) => {
    const stream = Readable.fromWeb(answer.body as WebReadableStream);
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    res.once('close', resolve);
    stream.pipe(res).once('finish', resolve);
  });
  return true;
}
