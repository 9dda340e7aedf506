// What the worker tests share: the demo's row-echo schema, and real worker files that speak the
// workbook worker's messages without reading, so a test can tell which thread answered.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { demoSeed } from '../../../src/sandbox'
import { officialTemplateSchemaSchema } from '../../../src/shared/contract'

export const echoSchema = officialTemplateSchemaSchema.parse(
  (demoSeed(1).officialTemplates ?? []).find((t) => t.schema.templateId === 'row-echo')!.schema,
)

/** A worker file at `dir/name` running `body`, with `parentPort` and `threadId` in scope. */
export function answeringWorker(dir: string, name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `import { parentPort, threadId } from 'node:worker_threads'\n${body}`)
  return path
}
