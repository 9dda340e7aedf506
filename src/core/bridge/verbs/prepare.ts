/** The New run screen: templates, listings, the input workbook, and checking a filled workbook. */
import { EngineError } from '../../errors'
import { knownCatalog } from '../../flows/catalog'
import type { CatalogServices } from '../../flows/catalog/catalog'
import { buyerListing } from '../../flows/listings/buyer-listing'
import {
  inputWorkbookName,
  knownTemplates,
  targetSchema,
  writeInputWorkbook,
} from '../../flows/prepare'
import { BridgeError } from '../../../shared/bridge'
import { describeFile, refusePathsOverHttp } from '../files'
import { listingView } from '../presenters/listing-view'
import { templateView } from '../presenters/template-view'
import type { SavedFiles } from '../saved-files'
import { throttled } from '../types'
import type { Engine } from '../../engine'
import type { Connects, VerbContext, Verbs } from './context'

/** What to run: the templates and listings, and the input workbook to fill for one. */
export function targetVerbs(
  ctx: VerbContext<Connects & CatalogServices & Pick<Engine, 'schemas' | 'callbackAddresses'>>,
  files: SavedFiles,
): Verbs<'listTemplates' | 'listCatalog' | 'getTemplate' | 'getListing' | 'saveInputWorkbook'> {
  const { engine } = ctx
  const connect = (environment: string) => engine.connect({ env: environment })
  return {
    async listTemplates(args) {
      const connection = await connect(args.environment)
      return { environment: args.environment, ...(await knownTemplates(engine, connection)) }
    },
    async listCatalog(args) {
      const connection = await connect(args.environment)
      return {
        environment: args.environment,
        unitLabel: connection.unitLabel,
        ...(await knownCatalog(engine, connection)),
      }
    },
    async getTemplate(args) {
      return templateView(engine, await connect(args.environment), args.templateId)
    },
    async getListing(args) {
      const connection = await connect(args.environment)
      const listing = await buyerListing(connection.client, args.listingId)
      if (listing.source === 'none') {
        throw new EngineError(
          'not-found',
          `“${args.listingId}” is not a published listing this service shows to buyers.`,
          'Check the listing ID. If you know its version ID, you can still check a workbook for it: the service validates it.',
        )
      }
      return listingView(connection.name, connection.unitLabel, listing)
    },
    async saveInputWorkbook(args) {
      const found = await targetSchema(engine, await connect(args.environment), args.target)
      return files.deliver(
        inputWorkbookName(found.name),
        `Save the input workbook of ${found.name}`,
        (path) => writeInputWorkbook(found, path),
      )
    },
  }
}

/** A filled workbook: checked in a worker, its rows paged to the grid, a marked-up copy. */
export function checkVerbs(
  ctx: VerbContext<Connects>,
  files: SavedFiles,
): Verbs<
  | 'describeFile'
  | 'checkWorkbook'
  | 'cancelCheck'
  | 'getCheckedRows'
  | 'saveMarkedUpCopy'
  | 'openSavedFile'
> {
  const { checks } = ctx
  return {
    describeFile: (args, context) => describeFile(args.file, context.transport),
    async checkWorkbook(args, context) {
      // Over HTTP a page could name any file on this computer: only contents are accepted.
      refusePathsOverHttp([args.file], context.transport)
      const { environment, checkId, file, ...choices } = args
      const connection = await ctx.engine.connect({ env: environment })
      const source =
        file.kind === 'path'
          ? { kind: 'path' as const, path: file.path, name: file.name }
          : { kind: 'bytes' as const, name: file.name, bytes: Buffer.from(file.base64, 'base64') }
      return checks.check(connection, {
        ...choices,
        checkId,
        source,
        onProgress: throttled(150, (rowsRead: number) =>
          ctx.emit('checkProgress', { checkId, rowsRead }),
        ),
      })
    },
    async cancelCheck(args) {
      checks.cancel(args.checkId)
      return null
    },
    getCheckedRows: async (args) => checks.rows(args.checkId, args.offset, args.limit),
    saveMarkedUpCopy: (args) =>
      files.deliver(
        checks.markedUpName(args.checkId),
        'Save a marked-up copy of the workbook',
        (path) => checks.annotate(args.checkId, path),
      ),
    async openSavedFile(args, context) {
      if (context.transport !== 'ipc') {
        throw new BridgeError({
          code: 'forbidden',
          message: 'A browser cannot open files on this computer for you.',
          nextStep: 'Open the downloaded file from your browser’s downloads.',
        })
      }
      await files.open(args.path)
      return null
    },
  }
}
