export * from './cells'
export * from './fields'
