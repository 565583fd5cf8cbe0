// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import fs from 'node:fs';
import globals from 'globals';

const webOnlyContract = {
  group: ['@tradebot/robot', '@tradebot/server'],
  message: 'web depends only on contract.',
};

/**
 * Imports flow shared (lib, stores, components) -> features -> app, and features never
 * import each other (STYLE.md, bulletproof-react). One block per feature folder.
 */
const webFeatures = fs.readdirSync(new URL('apps/web/src/features', import.meta.url));
const featureBoundaries = webFeatures.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          webOnlyContract,
          {
            regex: `^(\\.\\./)+(app|${webFeatures.filter((other) => other !== feature).join('|')})(/|$)`,
            message:
              'Features never import each other or src/app: move shared code to src/lib, src/stores or src/components.',
          },
        ],
      },
    ],
  },
}));

const notFromApps = {
  group: ['@tradebot/server', '@tradebot/web', '**/apps/*'],
  message: 'Nothing imports from apps/*.',
};

/**
 * Test doubles stay out of shipped code (issue 38): the cTrader fake lives in
 * packages/robot/test-support/ (export @tradebot/robot/ctrader/fake) and the server's test
 * helpers in apps/server/test/; nothing under the robot's or the server's src/ imports them,
 * save the robot's own *.test.ts files.
 */
const noTestDoubles = {
  regex:
    '^@tradebot/robot/ctrader/fake$|(^|/)(test-support|ctrader-fake)(/|$)|(^|/)test/helpers(/|$)',
  message:
    'Shipped code never imports the cTrader fake or other test support: they live outside src/ (packages/robot/test-support, apps/server/test).',
};

/**
 * The server's layers (decision 090): http -> services -> repositories, with adapters (the
 * database, the payment providers, the robot's Drizzle stores) behind the ports services use.
 */
const serverLayers = [
  {
    files: ['apps/server/src/repositories/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notFromApps,
            noTestDoubles,
            {
              regex: '^(\\.\\./)+(services|http)(/|$)',
              message: 'Repositories never import services or http/: services call repositories.',
            },
            {
              regex: '^(\\.\\./)+robot(/|$)',
              message:
                "Repositories never import the robot's code: what both read (db/trade-records.ts) lives in db/ (decision 165).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/services/**/*.ts', 'apps/server/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notFromApps,
            noTestDoubles,
            {
              regex: '^(\\.\\./)+(http|plugins|app)(/|$)',
              message:
                'Services raise domain errors and never import the HTTP layer: http/errors.ts maps them.',
            },
            {
              regex: '^(\\.\\./)+db/',
              message:
                'Services reach the database through repositories (repositories/transaction.ts for a transaction, repositories/errors.ts for a duplicate key).',
            },
            {
              regex: '^(\\.\\./)+robot/worker(/|$)',
              message:
                "Services never import the robot's worker side (its host, its Drizzle stores): use robot/link/robot-runtime.ts (decision 165).",
            },
            {
              regex: '^(\\.\\./)+repositories/',
              importNamePattern: 'Repository$',
              message:
                "Services depend on a repository's port (UsersStore, PromoCodesStore …), never its database class, so a unit test can hand them a plain stub.",
            },
            {
              regex: '^(\\.\\./)+payments/(?!payment-provider$)',
              message:
                "Services use the payment port (payment-provider.ts), never an adapter's code or pages.",
            },
          ],
        },
      ],
    },
  },
];

/**
 * The robot's seam (decision 165): robot/worker/ is what runs on the robot's thread (the host,
 * the core, its Drizzle stores, the lease keeper), robot/link/ is the main thread's side (the
 * client, the runtime port, live updates, account commands), and robot/protocol/ is all they
 * share. Only the composition (capabilities/robot) names both, to start the host inline.
 */
const robotSides = [
  {
    files: ['apps/server/src/robot/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notFromApps,
            noTestDoubles,
            {
              regex: '(^\\.\\./|/robot/)link(/|$)',
              message:
                "The robot's worker never imports the main thread's link: the two share robot/protocol/ alone (decision 165).",
            },
            {
              regex:
                '^(\\.\\./)+(services|http|plugins|capabilities|composition|realtime|repositories|app)(/|$)',
              message:
                "The robot's worker runs on its own thread and never imports the main thread's services, repositories, HTTP layer or composition: pure code both need goes to domain/ or db/ (decision 165).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/robot/link/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notFromApps,
            noTestDoubles,
            {
              regex: '(^\\.\\./|/robot/)worker(/|$)',
              message:
                'The main thread reaches the robot by messages (robot/protocol/), never by importing robot/worker/: the composition (capabilities/robot) hands the inline host in (decision 165).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/robot/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            notFromApps,
            noTestDoubles,
            {
              regex: '(^\\.\\./|/robot/)(worker|link)(/|$)',
              message:
                'The protocol is what both sides of the robot share: it declares its types itself and imports neither side (decision 165).',
            },
            {
              regex:
                '^(\\.\\./)+(services|http|plugins|capabilities|composition|realtime|repositories|app)(/|$)',
              message:
                'The protocol is plain data that crosses a MessagePort: it imports no service, repository or HTTP code (decision 165).',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      '**/data/**',
      '**/coverage/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'apps/*/scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins and handlers are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Imports point one way (ARCHITECTURE.md): nothing imports from apps/*.
      'no-restricted-imports': ['error', { patterns: [notFromApps] }],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@tradebot/*'], message: 'contract depends on nothing of ours.' }] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [webOnlyContract],
        },
      ],
    },
  },
  ...featureBoundaries,
  ...serverLayers,
  ...robotSides,
  {
    // The rest of the server's src/ (its layers above carry the same pattern).
    files: ['apps/server/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/server/src/repositories/**',
      'apps/server/src/services/**',
      'apps/server/src/domain/**',
      'apps/server/src/robot/**',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [notFromApps, noTestDoubles] }],
    },
  },
  {
    // The robot's src/ is what the server bundles; its own tests may drive the fake.
    files: ['packages/robot/src/**/*.ts'],
    ignores: ['packages/robot/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [notFromApps, noTestDoubles] }],
    },
  },
  {
    // Timed work runs in the job registry (decision 145); the robot keeps its own timers.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/composition/jobs.ts',
      'apps/server/src/robot/worker/robot-core.ts',
      'apps/server/src/robot/worker/robot-host.ts',
      'apps/server/src/robot/link/robot-client.ts',
      'apps/server/src/robot/worker/lease-keeper-worker.ts',
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'setInterval',
          message:
            "Timed work is a job: app.jobs.add({ name, everyMs, run, failure }) in the capability's plugin (decision 145).",
        },
      ],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'global'].map((object) => ({
          object,
          property: 'setInterval',
          message: 'Timed work is a job: app.jobs.add in the capability plugin (decision 145).',
        })),
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Served as is to browsers (apps/web/public/start.js).
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
