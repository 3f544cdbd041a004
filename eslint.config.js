import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'web/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config.ts and tests read the environment.' }],
    },
  },
  // The data layer's rules (D42): only the public API of a dependency, and outside src/db/ every transaction
  // through `Store.transaction` (its lost-COMMIT check and after-commit callbacks).
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['pg/lib/*', 'kysely/dist/*', '@fastify/*/store/*'], message: 'Only the public API of a dependency.' }],
          paths: [{ name: 'kysely', importNames: ['RawNode', 'SelectQueryNode', 'OperationNodeTransformer'], message: '@internal in Kysely: use its public API.' }],
        },
      ],
      // The same files reached through require (createRequire), which the rule above does not see.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression > Literal[value=/^(pg\\/lib|kysely\\/dist|@fastify\\/[^/]+\\/store)\\//]", message: 'Only the public API of a dependency.' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'D42: open a transaction with store.transaction (it resolves a lost COMMIT and runs the after-commit callbacks).',
        },
        // Repeated from the object above: a later setting of a rule replaces an earlier one for the files both match.
        { selector: "CallExpression > Literal[value=/^(pg\\/lib|kysely\\/dist|@fastify\\/[^/]+\\/store)\\//]", message: 'Only the public API of a dependency.' },
      ],
    },
  },
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'src/**/*.test.ts', 'bench/**', 'vitest.config.ts', 'vitest.e2e.config.ts', 'src/modules/rail/bind/sim/main.ts'], rules: { 'no-restricted-properties': 'off' } },
  // Test files run by one worker share their modules (vitest.config.ts): a module replaced in one would leak into the next.
  {
    files: ['test/**', 'src/**/*.test.ts', 'web/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'vi', property: 'mock', message: 'Test files share their modules (vitest.config.ts): pass a fake through options instead.' },
        { object: 'vi', property: 'doMock', message: 'Test files share their modules (vitest.config.ts): pass a fake through options instead.' },
      ],
    },
  },
  // D33: the owner's session token lives in memory or sessionStorage, never in localStorage.
  {
    files: ['web/src/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'localStorage', message: 'D33: nothing of the session goes to localStorage (web/src/lib/i18n.tsx keeps only the language there).' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'The dashboard runs in the browser: no environment.' },
        { object: 'window', property: 'localStorage', message: 'D33: see web/src/lib/i18n.tsx.' },
      ],
    },
  },
);
