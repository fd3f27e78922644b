// Type-checked lint rules, all at error level (`--max-warnings=0` in the lint script).
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'src/generated/**',
      // The REST client's generated SDK (npm run client:generate), checked against the API by a test instead.
      'packages/client/src/generated/**',
      '.next/**',
      '.data/**',
      'node_modules/**',
      'next-env.d.ts',
      '**/*.cjs',
      'test/architecture/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      // A pages-router rule: in the app router, plain links to API documents are right.
      '@next/next/no-html-link-for-pages': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // `() => void run()` and `(resolve) => setTimeout(resolve, n)` read well; braces add nothing there.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    // Server code logs through src/base/log (one JSON line per event, secrets redacted, the request's context; ADR 33),
    // never the console. Left out: the browser's code (src/ui, every module's ui/ folder), tests, and the two CLIs
    // whose output is for a person at a terminal.
    files: ['src/**/*.{ts,tsx}', 'worker/**/*.ts'],
    ignores: [
      'src/ui/**',
      'src/**/ui/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'src/modules/platform/broker/management/probe-cli.ts',
      'src/modules/platform/clusters/server/credentials/reseal-cli.ts',
    ],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
  {
    // Plugin bundles (examples/plugins/*/server.js, ui.js; issue 33): plain JavaScript outside the TypeScript project,
    // run with nothing but what the host hands them. No globals beyond the language's, and what the upload's static
    // analysis refuses is refused here first, so an author hears of it before packing.
    files: ['examples/plugins/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'module', globals: {} },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      'no-restricted-globals': [
        'error',
        'eval',
        'Function',
        'globalThis',
        'WebAssembly',
        'SharedArrayBuffer',
        'Atomics',
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportDeclaration, ImportExpression, ExportAllDeclaration', message: 'A bundle imports nothing.' },
        { selector: 'ExportNamedDeclaration[source]', message: 'A bundle imports nothing.' },
        { selector: 'MetaProperty', message: 'A bundle has no import.meta.' },
        { selector: "MemberExpression[property.name='constructor']", message: 'A bundle never reaches .constructor.' },
      ],
    },
  },
);
