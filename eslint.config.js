import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './eslint/layer-imports.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '.conformance/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly', performance: 'readonly', globalThis: 'readonly' } },
    plugins: { switchboard: layers },
    rules: {
      'switchboard/layer-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Library code never writes to stdout or calls console (ARCHITECTURE.md convention 5).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-console': 'error',
      // An object made the prototype of another keeps what it reaches alive through V8's young
      // collections: per request, that promoted whole requests (docs/performance.md, "Issue 37, ninth
      // round"). Copy the fields, or use a class, instead. (A per-request object with its own getter
      // does the same, which this rule cannot tell from a one-time one: keep such getters on a class.)
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Object'][callee.property.name='create'][arguments.0.raw!='null']",
          message: 'Object.create over an object makes it a prototype: copy its fields or use a class (docs/performance.md, "Issue 37, ninth round").',
        },
        {
          selector: "CallExpression[callee.object.name=/^(Object|Reflect)$/][callee.property.name='setPrototypeOf']",
          message: 'setPrototypeOf makes an object a prototype: use a class (docs/performance.md, "Issue 37, ninth round").',
        },
        // V8 allocates a function literal written as the value of a property assignment in its old
        // generation, expecting a method. Made per request, it kept the request it closes over alive
        // through the young collections (docs/performance.md, "Issue 37, sixteenth round").
        {
          selector: "AssignmentExpression[left.type='MemberExpression'][right.type=/^(ArrowFunctionExpression|FunctionExpression)$/]",
          message: 'A function literal assigned to a property is allocated in the old generation, and keeps what it closes over alive through young collections: assign it from a const, or pass handlers in an object (hear() in src/mcp-host/rpc/transport-decorator.ts; docs/performance.md, "Issue 37, sixteenth round").',
        },
      ],
    },
  },
);
