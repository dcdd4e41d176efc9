import { defineConfig } from 'vitest/config';

/** The directory sign-in tests, which need the OpenLDAP server `npm run test:ldap` provides (see test-ldap.mjs). */
export default defineConfig({
  test: {
    name: 'ldap',
    root: new URL('..', import.meta.url).pathname,
    environment: 'node',
    include: ['src/server/**/*.ldap.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One slapd shared by the file's tests, stopped and started by some of them: no parallel files.
    fileParallelism: false,
  },
});
