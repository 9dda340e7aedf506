/**
 * The usual good cell of a plain column, answered without the general check (checkCell): a
 * sheet has a million cells, most of them a whole number in an integer column, a number in a
 * number column, text in a text column, or a date in a date column.
 */
import type { SchemaField } from '../../../shared/contract'
import type { CellValue } from '../../../shared/input-schema'
import { isBlankText } from './row-shape'

/**
 * Whether `cell` is good for `field` and is sent as it is, just as checkCell would answer; or,
 * when `checkingOnly` (nothing is sent), a real date in a date column. false: ask checkCell.
 */
export function plainGood(field: SchemaField, cell: CellValue, checkingOnly: boolean): boolean {
  if (field.multiValue) return false
  const type = field.type
  if (typeof cell === 'number')
    return type === 'integer' ? Number.isInteger(cell) : type === 'number' && Number.isFinite(cell)
  if (typeof cell === 'string') return (type === 'string' || type === 'text') && !isBlankText(cell)
  return checkingOnly && type === 'date' && cell instanceof Date && !Number.isNaN(cell.getTime())
}
