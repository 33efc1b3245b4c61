// What the security tests of acting as each caller share: unique secrets, the credentials a run involved (as the
// OAuth fixture issued, was presented or was sent them), finding them in a text, and every file under
// a home but the sealed caller-credential store (which holds none in plain text, checked apart).
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OAuthFixture } from '../fixtures/oauth-fixture.js';
import { presentedTokens } from '../gateway/caller-harness.js';

/** The sealed caller-credential store's folder under a home. */
export const STORE_FOLDER = 'caller-credentials';

/** A secret unique to this run, labelled (so a leak says what leaked). */
export const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

/** The credentials found in `text`. */
export const leaks = (text: string, credentials: string[]) => credentials.filter((c) => text.includes(c));

/** Every file under `dir` but the sealed caller-credential store, as text. */
export async function homeFiles(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name));
    if (rel.split(path.sep)[0] === STORE_FOLDER) continue;
    out[rel] = await readFile(path.join(dir, rel), 'latin1');
  }
  return out;
}

/** Every credential `fixture` issued, was presented or was sent, the callers' own tokens, and `secrets`. */
export function allCredentials(fixture: OAuthFixture, callerTokens: string[], secrets: string[]): string[] {
  const sent = [...fixture.requestsTo('/token'), ...fixture.requestsTo('/idp/token')].flatMap((r) =>
    [r.params.refresh_token, r.params.subject_token, r.params.assertion, r.params.code, r.params.code_verifier].filter((x): x is string => !!x),
  );
  return [...new Set([...callerTokens, ...presentedTokens(fixture), ...fixture.issuedTokens(), ...sent, ...secrets])];
}
