export { knownCatalog } from './catalog'
