export * from './read'
export * from './generate'
