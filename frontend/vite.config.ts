import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// One config for the app build (vite build → dist/) and the component tests
// (vitest run). svelteTesting only acts under Vitest: it makes Svelte resolve
// its browser build in jsdom and cleans the DOM after each test.
export default defineConfig({
  plugins: [svelte(), svelteTesting()],
  // The message catalogue lives in ../i18n/locales, shared with Go: the dev
  // server may read it there.
  server: { fs: { allow: ['..'] } },
  // A catalogue (115 KiB) as JSON.parse of one string, not an object
  // literal: the engine reads it faster, and English's is part of the
  // script the window compiles before its first frame (README, P4).
  json: { stringify: true, namedExports: false },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The module preload polyfill is an inline script, which the CSP forbids;
    // the webviews Gatehouse runs in support modulepreload anyway.
    modulePreload: { polyfill: false },
    // What the window needs at start (the Servers pane, the consent dialog)
    // is one script, not ten: each file is a request to Wails' asset server.
    // The other panes and the Chinese catalogue stay chunks of their own,
    // fetched when first wanted (App.svelte, lib/i18n.svelte.ts).
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    passWithNoTests: false,
    setupFiles: ['src/test-setup.ts'],
    // Vitest gives CSS imports as empty strings unless told; src/theme.test.ts reads app.css.
    css: { include: [/app\.css/] },
  },
});
