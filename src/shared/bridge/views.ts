/**
 * What the engine shows the UI across the Bridge. These are plain, serialisable views: no
 * tokens, no functions, no class instances. The same values travel over Electron IPC
 * (structured clone) and over HTTP/WebSocket (JSON) in browser mode.
 *
 * One file per screen or domain in views/; this file only gathers them.
 */
export * from './views/environments'
export * from './views/runs'
export * from './views/spending'
export * from './views/prepare'
export * from './views/after-run'
export * from './views/creator'
export * from './views/settings'
export * from './views/catalog'
export * from './views/compare'
export * from './views/redo'
export * from './views/pace'
export * from './views/drafts'
export * from './views/batches'
export * from './views/usage'
