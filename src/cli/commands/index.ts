/** Every command of `skill-runner`, in the order `--help` lists them. */
import type { Command } from '../command'
import { listings, reviewsShow } from './creators'
import { envAdd, envList, envRemove, envUse } from './env'
import { runsList, runsShow } from './runs'
import { doctor, sandbox } from './system'
import { templatesSchema, templatesShow } from './templates'
import { upload } from './upload'

export const commands: Command[] = [
  doctor,
  envAdd,
  envList,
  envRemove,
  envUse,
  templatesSchema,
  templatesShow,
  upload,
  runsList,
  runsShow,
  listings,
  reviewsShow,
  sandbox,
]
