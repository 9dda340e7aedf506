export * from './resources'
export * from './endpoints'
export * from './statuses'
export * from './parse'
