import { describe, expect, it } from 'vitest';
import { shellEnvironment } from './shell-env.js';

describe('shellEnvironment', () => {
  it('keeps ordinary variables and drops secret-looking ones', () => {
    const env = shellEnvironment({ PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'sk', GITHUB_TOKEN: 't', DB_PASSWORD: 'p', AWS_SECRET_ACCESS_KEY: 's', LANG: 'C' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C' });
  });
});
