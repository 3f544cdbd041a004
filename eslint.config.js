import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only src/config.ts and tests read the environment.' }],
    },
  },
  { files: ['src/config.ts', 'src/main.ts', 'test/**', 'src/**/*.test.ts', 'bench/**', 'vitest.config.ts'], rules: { 'no-restricted-properties': 'off' } },
);
