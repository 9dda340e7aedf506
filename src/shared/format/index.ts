export * from './runs'
export * from './time'
