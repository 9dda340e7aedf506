export { knownCatalog, type CatalogServices } from './catalog'
