// Packages switchboard uses only for some features (OpenTelemetry export, the PostgreSQL store, exact
// token counts) are optional peer dependencies: loaded on first use, and named when missing.
import { SwitchboardError } from './errors.js';

/** True when `err` is Node's failure to find one of `packages` (or an entry point inside one). */
export function isMissingPackage(err: unknown, packages: readonly string[]): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = err instanceof Error ? err.message : '';
  return packages.some((name) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
}

/**
 * `load()` (a dynamic import that needs `packages`); when one of them is not installed, an error
 * (`package_missing`) that says which feature needs what and the command that installs it.
 */
export async function importOptional<T>(feature: string, packages: readonly string[], load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isMissingPackage(err, packages)) throw err;
    const what = packages.length === 1 ? `the package ${packages[0]}` : `the packages ${packages.join(', ')}`;
    const list = packages.join(' ');
    throw new SwitchboardError(
      'package_missing',
      `${feature} needs ${what}, which switchboard does not install by default: run \`npm i ${list}\` in the project that uses switchboard (\`npm i -g ${list}\` beside a global install)`,
      { cause: err },
    );
  }
}
