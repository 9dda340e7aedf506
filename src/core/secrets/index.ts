export * from './store'
export * from './keyring'
export * from './choose'
export * from './place'
