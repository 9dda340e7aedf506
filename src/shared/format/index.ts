export * from './runs'
export * from './time'
export * from './rows'
export * from './service-version'
