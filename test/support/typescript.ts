// The TypeScript compiler that builds and type-checks (`npm run build`, `npm run typecheck`, the
// examples' check): TypeScript 7's native compiler, the `typescript-native` devDependency (an alias of
// typescript@7), about three times faster on two cores. The `typescript` package (6.x) stays for its
// JavaScript API, which typescript-eslint and the architecture tests import, and for the long runs'
// check of the package as a user's tsc sees it (test/api/pack.test.ts).
import path from 'node:path';

export const TSC = path.resolve(import.meta.dirname, '..', '..', 'node_modules', 'typescript-native', 'bin', 'tsc');
