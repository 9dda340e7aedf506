/**
 * The user's own column names for a results workbook, when the run's rows came from a sheet
 * whose headers were mapped to the template's fields: the kept copy of the input is read again
 * with the mappings remembered for the template, and its mapped columns, in the sheet's order,
 * name the input columns. A sheet with the template's own headers changes nothing.
 */
import type { OfficialTemplateSchema } from '../../../shared/contract'
import { parseInputWorkbook } from '../../workbooks'
import type { ColumnMappings } from '../prepare/column-mappings'
import type { Submission } from '../../storage/tables/submissions'
import { defined } from '../../../shared/defined'

export interface UserColumn {
  key: string
  header: string
}

export async function userColumnsOf(
  mappings: Pick<ColumnMappings, 'forTarget'> | undefined,
  historyKey: string,
  submission: Pick<Submission, 'inputCopyPath' | 'targetKind' | 'targetId'>,
  schema: OfficialTemplateSchema,
  signal?: AbortSignal,
): Promise<UserColumn[] | undefined> {
  if (!mappings || !submission.inputCopyPath || submission.targetKind !== 'template')
    return undefined
  const remembered = mappings.forTarget(historyKey, {
    kind: 'template',
    templateId: submission.targetId,
  })
  // No mapping was ever confirmed for this template: its own headers were used.
  if (Object.keys(remembered).length === 0) return undefined
  const read = await parseInputWorkbook({ path: submission.inputCopyPath }, schema, {
    keepRows: false,
    checkFiles: false,
    rememberedMaps: remembered,
    ...defined({ signal }),
  }).catch(() => null)
  const outcome = read?.mapping
  if (!outcome || outcome.source !== 'remembered') return undefined
  return outcome.headers.flatMap((header) => {
    const key = header === null ? null : outcome.applied[header]
    return header !== null && key ? [{ key, header }] : []
  })
}
