export * from './store'
export * from './keytar'
