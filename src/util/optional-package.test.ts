// Optional peer dependencies: a missing one is named, with the command that installs it; any other
// failure of the import is left as it is.
import { describe, expect, it } from 'vitest';
import { importOptional, isMissingPackage } from './optional-package.js';

describe('importOptional', () => {
  it('names the feature, the packages and the install command when a package is missing', async () => {
    const missing = importOptional('Trace export', ['no-such-package-i33c', 'no-such-other-i33c'], () => import('no-such-package-i33c' as string));
    await expect(missing).rejects.toMatchObject({
      code: 'package_missing',
      message:
        'Trace export needs the packages no-such-package-i33c, no-such-other-i33c, which switchboard does not install by default: run `npm i no-such-package-i33c no-such-other-i33c` in the project that uses switchboard (`npm i -g no-such-package-i33c no-such-other-i33c` beside a global install)',
    });
  });

  it('leaves other failures alone, and loads what is there', async () => {
    const broken = new Error('boom');
    await expect(importOptional('X', ['pg'], () => Promise.reject(broken))).rejects.toBe(broken);
    // A package that is missing but not the one named is not this feature's to explain.
    await expect(importOptional('X', ['pg'], () => import('no-such-package-i33c' as string))).rejects.toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    expect(await importOptional('X', ['zod'], () => import('zod/v3'))).toHaveProperty('z');
    expect(isMissingPackage(Object.assign(new Error("Cannot find package 'pg' imported from /x.js"), { code: 'ERR_MODULE_NOT_FOUND' }), ['pg'])).toBe(true);
  });
});
