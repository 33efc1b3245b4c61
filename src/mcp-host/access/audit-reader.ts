// Reading the audit trail back (`switchboard audit tail`): the newest records across the live file
// and its rotations, optionally only one caller's (by subject or client id).
import { readFile } from 'node:fs/promises';
import type { AuditRecord } from './audit-trail.js';

export interface AuditTailOptions {
  /** Only records whose subject or client id is this. */
  caller?: string;
  /** How many of the newest records (default 20). */
  limit?: number;
  /** Rotated files to look through besides the live one (default 5, as the log's rotation keeps). */
  rotations?: number;
}

/** The newest `limit` records, oldest first; lines that are not records are skipped. */
export async function readAuditTail(file: string, options: AuditTailOptions = {}): Promise<AuditRecord[]> {
  const limit = options.limit ?? 20;
  const files = [file, ...Array.from({ length: options.rotations ?? 5 }, (_, i) => `${file}.${i + 1}`)];
  const found: AuditRecord[] = [];
  for (const f of files) {
    const text = await readFile(f, 'utf8').catch(() => null);
    if (text === null) continue;
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0 && found.length < limit; i--) {
      const record = parse(lines[i]!);
      if (record && (options.caller === undefined || record.subject === options.caller || record.client_id === options.caller)) found.push(record);
    }
    if (found.length >= limit) break;
  }
  return found.reverse();
}

function parse(line: string): AuditRecord | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && typeof (value as AuditRecord).method === 'string' ? (value as AuditRecord) : undefined;
  } catch {
    return undefined;
  }
}
