/**
 * The usual good cell of a column, answered without the general check (checkCell): a sheet has
 * a million cells, most of them a whole number in an integer column, a number in a number
 * column, text in a text column, a date in a date column, or one of a few words in a yes/no or
 * a choice column. What a column takes is worked out once, when the header is read (a rule per
 * column), not again for every cell.
 */
import type { SchemaField } from '../../../shared/contract'
import {
  CellProblem,
  checkCell,
  type CellValue,
  type WireValue,
} from '../../../shared/input-schema'
import { isBlankText } from './row-shape'

/** How one column's usual good cells are told, made once per column. */
export interface PlainRule {
  /** The field's type; '' for a list field (multiValue), whose cells always go to checkCell. */
  readonly type: string
  /**
   * The words a yes/no or choice column's cells most often hold, each with what checkCell
   * answers for it (asked once per word, so the answer is checkCell's own); null for others.
   */
  readonly words: ReadonlyMap<CellValue, WireValue> | null
}

/**
 * The words a yes/no cell is looked up among. Only a shortcut: a word here that checkCell did
 * not take would be left out, and a word not here still goes to checkCell.
 */
const YES_NO_WORDS = ['yes', 'no', 'Yes', 'No', 'YES', 'NO', 'true', 'false', 'TRUE', 'FALSE']
const YES_NO_MORE = ['True', 'False', 'y', 'n', 'Y', 'N', 'x', 'X', '1', '0']

function knownWords(field: SchemaField): Map<CellValue, WireValue> | null {
  const candidates =
    field.type === 'boolean'
      ? [...YES_NO_WORDS, ...YES_NO_MORE]
      : field.type === 'enum'
        ? field.enumValues
        : null
  if (!candidates) return null
  const words = new Map<CellValue, WireValue>()
  for (const word of candidates) {
    const checked = checkCell(field, word)
    if (checked !== undefined && !(checked instanceof CellProblem)) words.set(word, checked)
  }
  return words
}

/** The rule of a column of this field. */
export function plainRule(field: SchemaField): PlainRule {
  if (field.multiValue) return { type: '', words: null }
  return { type: field.type, words: knownWords(field) }
}

/**
 * Whether `cell` is good for the rule's column and is sent as it is, just as checkCell would
 * answer; or, when `checkingOnly` (nothing is sent), a real date in a date column. false: ask
 * knownWord, then checkCell.
 */
export function plainGood(rule: PlainRule, cell: CellValue, checkingOnly: boolean): boolean {
  const type = rule.type
  if (typeof cell === 'number')
    return type === 'integer' ? Number.isInteger(cell) : type === 'number' && Number.isFinite(cell)
  if (typeof cell === 'string') return (type === 'string' || type === 'text') && !isBlankText(cell)
  return checkingOnly && type === 'date' && cell instanceof Date && !Number.isNaN(cell.getTime())
}

/** What checkCell answers for a cell that holds one of the column's usual words; else undefined. */
export function knownWord(rule: PlainRule, cell: CellValue): WireValue | undefined {
  return rule.words?.get(cell)
}
