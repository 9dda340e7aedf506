// Lint rules. The important one is the layering rule: a file's folder says what it may import
// (see DESIGN.md, "Dependencies point one way").
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

/** Folders under src/ and the src/ folders each may not import. */
const forbidden = {
  shared: ['core', 'main', 'preload', 'renderer', 'web', 'cli', 'sandbox'],
  core: ['main', 'preload', 'renderer', 'web', 'cli', 'sandbox'],
  // The sandbox plays the service: it reads uploaded workbooks with its own code, never core's.
  sandbox: ['core', 'main', 'preload', 'renderer', 'web', 'cli'],
  // main may start the built-in sandbox in-process (DESIGN.md flow 1: no set-up needed).
  main: ['renderer', 'preload', 'web', 'cli'],
  preload: ['core', 'main', 'renderer', 'web', 'cli', 'sandbox'],
  renderer: ['core', 'main', 'preload', 'web', 'cli', 'sandbox'],
  web: ['renderer', 'main', 'preload', 'cli', 'sandbox'],
  // The CLI's `web` command starts browser mode (INTERFACES.md), so cli may import web.
  cli: ['renderer', 'main', 'preload'],
}

function layerRule(layer) {
  const patterns = forbidden[layer].map((other) => ({
    group: [`**/${other}/**`, `**/${other}`],
    message: `src/${layer} may not import src/${other} (see DESIGN.md, rules of the house).`,
  }))
  const paths = []
  if (layer !== 'main' && layer !== 'preload') {
    paths.push({ name: 'electron', message: `src/${layer} never imports electron.` })
  }
  if (layer === 'renderer' || layer === 'shared') {
    for (const name of [
      'node:fs',
      'fs',
      'node:path',
      'path',
      'node:child_process',
      'child_process',
    ]) {
      paths.push({ name, message: `src/${layer} runs without Node.` })
    }
  }
  if (layer === 'main') {
    paths.push({
      name: 'electron',
      importNames: ['ipcMain'],
      message: 'Register IPC handlers through the typed wrapper in src/main/ipc.ts.',
    })
  }
  return {
    files: [`src/${layer}/**/*.{ts,tsx}`],
    // The one typed IPC wrapper is the only file that touches ipcMain directly.
    ignores: layer === 'main' ? ['src/main/ipc.ts'] : [],
    rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
  }
}

/**
 * Inside the engine (src/core), layers import downward only (ARCHITECTURE.md): the base folders
 * (files, service, secrets, storage, workbooks) know no environment, flow, Bridge or engine;
 * environments know no flow; flows never import the Bridge layer or the composition root; only
 * the Bridge layer presents flows as views. Keys: folders under src/core; values: what they may
 * not import, as path patterns (shared/bridge, the contract's types, stays allowed).
 */
const coreFolderPatterns = {
  bridge: [
    '**/core/bridge',
    '**/core/bridge/**',
    '../bridge/**',
    '../../bridge/**',
    '../../bridge',
  ],
  engine: ['**/engine', '../engine', '../../engine'],
  flows: ['**/flows/**'],
  environments: ['**/environments/**'],
  storage: ['**/storage/**'],
}
const coreForbidden = {
  flows: ['bridge', 'engine'],
  environments: ['bridge', 'engine', 'flows'],
  storage: ['bridge', 'engine', 'flows', 'environments'],
  service: ['bridge', 'engine', 'flows', 'environments', 'storage'],
  secrets: ['bridge', 'engine', 'flows', 'environments', 'storage'],
  files: ['bridge', 'engine', 'flows', 'environments', 'storage'],
  workbooks: ['bridge', 'engine', 'flows', 'environments', 'storage'],
}

function coreLayerRule(folder) {
  const patterns = coreForbidden[folder].map((other) => ({
    group: coreFolderPatterns[other],
    message: `src/core/${folder} may not import src/core/${other} (ARCHITECTURE.md: layers import downward).`,
  }))
  // A later rule replaces an earlier one for the same files: keep core's own rule in it too.
  const core = layerRule('core').rules['no-restricted-imports'][1]
  return {
    files: [`src/core/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...core.patterns, ...patterns], paths: core.paths },
      ],
    },
  }
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'build/**',
      '.tmp/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...Object.keys(forbidden).map(layerRule),
  ...Object.keys(coreForbidden).map(coreLayerRule),
)
