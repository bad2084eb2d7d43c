/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { lessonsPlugin } from './build/lessonsPlugin';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset URLs: the built site works under any base path, from any static server.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // Lessons are MDX, compiled and checked (their scenarios run) at build time.
  plugins: [...lessonsPlugin(fileURLToPath(new URL('../lessons', import.meta.url))), react()],
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Three pages: the app, the widget a blog embeds (small until its engine loads),
    // and the engine's diagnostics (its panic test path).
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        embed: fileURLToPath(new URL('embed.html', import.meta.url)),
        diagnostics: fileURLToPath(new URL('diagnostics.html', import.meta.url)),
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
  test: {
    root: here,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
