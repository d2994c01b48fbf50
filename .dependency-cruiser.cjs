/**
 * Layer rules of ARCHITECTURE.md §2. `npm run lint:layers` fails on any violation;
 * scripts/layerRules.test.ts proves a planted violation is caught.
 */
const TEST = '\\.test\\.tsx?$';
/** A slice's public entries: index.ts, and migrations.ts (its Migration arrays only, see below). */
const PUBLIC_ENTRY = '^electron/features/[^/]+/(index|migrations)\\.ts$';
module.exports = {
  forbidden: [
    {
      name: 'shared-imports-only-shared',
      comment: 'shared/ holds contracts only: it may import shared/ and zod, nothing else.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '(^|/)node_modules/zod/', '(^|/)node_modules/@types/'] },
    },
    {
      name: 'renderer-imports-renderer-or-shared',
      comment: 'The renderer talks to the main side only through the typed bridge.',
      severity: 'error',
      from: { path: '^renderer/', pathNot: TEST },
      to: { pathNot: ['^renderer/', '^shared/', '(^|/)node_modules/'] },
    },
    {
      name: 'renderer-no-node-builtins',
      severity: 'error',
      from: { path: '^renderer/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-is-pure',
      comment: 'features/X/domain: no node:*, no I/O libraries, no electron, no platform, no adapters.',
      severity: 'error',
      from: { path: '^electron/features/[^/]+/domain/', pathNot: TEST },
      to: {
        pathNot: ['^electron/features/[^/]+/domain/', '^shared/', '(^|/)node_modules/zod/'],
      },
    },
    {
      name: 'cadgen-protocol-domain-is-pure',
      comment: 'The CDSL v3 protocol domain (states, errors, tools) imports only the cadgen domain, shared/ and zod.',
      severity: 'error',
      from: { path: '^electron/features/cadgen/domain/protocol/', pathNot: TEST },
      to: { pathNot: ['^electron/features/cadgen/domain/', '^shared/', '^node_modules/zod/'] },
    },
    {
      name: 'domain-no-node-builtins',
      severity: 'error',
      from: { path: '^electron/features/[^/]+/domain/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'application-never-imports-adapters',
      comment: 'Application code depends on ports; adapters are wired in composition roots.',
      severity: 'error',
      from: { path: '^electron/features/([^/]+)/(application|domain|ports)/', pathNot: TEST },
      to: { path: '^electron/features/[^/]+/adapters/' },
    },
    {
      name: 'slices-use-public-entries-only',
      comment: 'features/X never reaches into features/Y internals; only features/Y/index.ts (or its migrations.ts).',
      severity: 'error',
      from: { path: '^electron/features/([^/]+)/' },
      to: { path: '^electron/features/([^/]+)/', pathNot: ['^electron/features/$1/', PUBLIC_ENTRY] },
    },
    {
      name: 'composition-roots-use-public-entries',
      comment: 'electron/main and electron/host wire slices through their index.ts (or migrations.ts) only.',
      severity: 'error',
      from: { path: '^electron/(main|host)/', pathNot: TEST },
      to: { path: '^electron/features/', pathNot: PUBLIC_ENTRY },
    },
    {
      name: 'migrations-entries-stay-light',
      comment:
        'features/X/migrations.ts exists so a composition root can build the migration list without loading the slice (the vision MCP cold start): it reaches only the slice\'s migration modules and the platform Migration type.',
      severity: 'error',
      from: { path: '^electron/features/([^/]+)/migrations\\.ts$' },
      to: {
        reachable: true,
        pathNot: ['^electron/features/$1/migrations\\.ts$', '^electron/features/$1/adapters/.*[mM]igrations\\.ts$', '^electron/platform/db/types\\.ts$', '(^|/)node_modules/@types/'],
      },
    },
    {
      name: 'platform-never-imports-features',
      severity: 'error',
      from: { path: '^electron/platform/' },
      to: { path: '^electron/features/' },
    },
    {
      name: 'platform-and-features-never-import-composition-roots',
      severity: 'error',
      from: { path: '^electron/(platform|features)/' },
      to: { path: '^electron/(main|host|preload)/' },
    },
    {
      name: 'test-support-only-in-tests',
      comment: 'The scripted provider and other test support never ship in a product path.',
      severity: 'error',
      from: { pathNot: [TEST, '^electron/testSupport/', '^e2e/', '^scripts/', '\\.testSupport\\.ts$'] },
      // *.testSupport.ts: a module's own test helper kept beside it (e.g. platform/secrets).
      to: { path: ['^electron/testSupport/', '\\.testSupport\\.ts$'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    exclude: { path: ['^dist/', '(^|/)node_modules/'] },
  },
};
