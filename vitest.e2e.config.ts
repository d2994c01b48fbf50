import { defineConfig } from 'vitest/config';

// End-to-end journeys: the built app in browser mode driven by Playwright in Debian Chromium,
// and the Electron journey when a binary exists. Run after `npm run build`.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // A page reacts to a click within a second on a quiet machine; CI shares two cores with other work,
    // so an unqualified expect.poll waits up to 10 s before it fails.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
