import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/** The gateway the dev server forwards /dashboard/api to (the back end serves everything else in production). */
const gateway = process.env.DASHBOARD_GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  // Workspace packages by their TypeScript sources (`source` export), as tsconfig resolves them: the generated
  // lists of @platform/client/schema (the event types the API accepts) are bundled, with no build of the client first.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    strictPort: false,
    // The accounts routes accept state changes only from an allowed Origin: present the gateway's own.
    proxy: {
      '/dashboard/api': {
        target: gateway,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', new URL(gateway).origin)),
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Two shared cores: a generous ceiling so a slow machine never fails a flow test; nothing asserts timing.
    testTimeout: 30_000,
    // Other packages' suites run beside this one (pnpm -r test, three at a time) on two cores.
    maxWorkers: 2,
  },
});
