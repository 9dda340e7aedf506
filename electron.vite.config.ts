// Builds the desktop app into out/: main (Node, ESM), preload (one self-contained CommonJS file,
// as Electron requires for a sandboxed preload) and renderer (the React UI, also served by
// browser mode from out/renderer).
import { resolve } from 'node:path'
import { existsSync } from 'node:fs'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const root = import.meta.dirname

// Extra main-process entries that must exist as files of their own (worker threads).
const workerEntries: Record<string, string> = {}
for (const [name, file] of [
  ['workbook-worker', 'src/core/workbooks/worker/entry.ts'],
  ['sandbox-workbook-worker', 'src/sandbox/workbooks/sandbox-workbook-worker.ts'],
] as const) {
  if (existsSync(resolve(root, file))) workerEntries[name] = resolve(root, file)
}

export default defineConfig({
  main: {
    build: {
      // Native modules (libsql, the keyring binding) and the other runtime dependencies stay in
      // node_modules (the optional keyring binding has to be named).
      externalizeDeps: { include: ['@napi-rs/keyring'] },
      rolldownOptions: {
        input: { index: resolve(root, 'src/main/index.ts'), ...workerEntries },
      },
    },
  },
  preload: {
    build: {
      // sandbox: true means the preload cannot require anything but electron: bundle it all.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react()],
    build: {
      // electron-vite leaves every bundle unminified; the renderer is the one loaded on every
      // start (and served over HTTP in browser mode), so it is minified (vite's default minifier).
      // Source maps stay out of the app; main and preload stay readable for stack traces.
      minify: true,
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: { index: resolve(root, 'src/renderer/index.html') } },
    },
  },
})
