/** Every command of `skill-runner`, in the order `--help` lists them. */
import type { Command } from '../command'
import { metaCommands } from '../meta-commands'
import { listings, reviewsShow } from './creators'
import { envAdd, envLimit, envList, envRemove, envRows, envUse } from './env'
import { usage } from './usage'
import { runsList, runsShow } from './runs'
import { runsDownload, runsResults } from './downloads'
import { doctor, sandbox } from './system'
import { templatesList, templatesSchema, templatesShow, templatesWorkbook } from './templates'
import { validate } from './validate'
import { execute, run, runsRetryFailed } from './submit'
import { runsWatch } from './watch'
import { history } from './history'
import { upload } from './upload'
import { web } from './browser'
import { runsCompare } from './compare'
import { runsKeep, runsRedo } from './redo'
import { batchShow } from './batch'

export const commands: Command[] = [
  doctor,
  envAdd,
  envList,
  envRemove,
  envUse,
  envLimit,
  envRows,
  templatesList,
  templatesSchema,
  templatesWorkbook,
  templatesShow,
  validate,
  upload,
  run,
  execute,
  runsList,
  runsShow,
  runsWatch,
  runsDownload,
  runsResults,
  runsRetryFailed,
  runsCompare,
  runsRedo,
  runsKeep,
  batchShow,
  history,
  usage,
  listings,
  reviewsShow,
  sandbox,
  web,
]

// help and completion are made from the list above.
commands.push(...metaCommands(() => commands))
