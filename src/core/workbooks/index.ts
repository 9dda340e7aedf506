export * from './read'
export * from './generate'
export * from './parse'
export * from './annotate'
