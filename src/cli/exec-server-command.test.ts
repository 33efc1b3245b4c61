import { describe, expect, it } from 'vitest';
import { DEFAULT_EXEC_LIMITS } from '../exec-server/index.js';
import { HELP_LIMIT_DEFAULTS } from './exec-server-command.js';

describe('exec-server --help defaults', () => {
  it('match the service defaults', () => {
    for (const [key, value] of Object.entries(HELP_LIMIT_DEFAULTS)) expect(value).toBe(DEFAULT_EXEC_LIMITS[key as keyof typeof DEFAULT_EXEC_LIMITS]);
  });
});
