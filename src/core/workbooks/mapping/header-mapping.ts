/**
 * The Collector's header stage: which row is the header (looking a few rows ahead only when
 * the first one names none of the template's fields, so a title above the table is passed
 * over), which mapping the columns take (the one given, else the header's own names, else one
 * remembered for this set of headers), a bounded sample of values, and, when the headers are not
 * the template's own, the proposal. One per read; holds no file.
 */
import type { ListingInputSchema, SchemaField } from '../../../shared/contract'
import { isBlank, type CellValue } from '../../../shared/input-schema'
import { cellText } from '../sheets'
import {
  applyColumnMap,
  headersKey,
  leftOutColumns,
  unknownKeys,
  type ColumnMap,
} from './column-map'
import { findHeaderRow, HEADER_LOOKAHEAD } from './header-row'
import { proposeMapping, type MappingProposal } from './propose'
import { looseKey } from './words'

/** The column a set-aside workbook adds for its problems: never one of the user's own. */
export const SET_ASIDE_PROBLEM = 'Problem (Skill Runner)'

/** Data rows whose values the proposal looks at: enough to tell a kind, bounded for any sheet. */
export const SAMPLE_ROWS = 20

/** How the columns were matched to the fields, for the front doors to show and remember. */
export interface MappingOutcome {
  /** The header's spreadsheet row number (above it: a title, notes or blank rows). */
  headerRow: number
  /** The header texts, column for column (null: blank). */
  headers: (string | null)[]
  /** exact: the template's own headers; given / remembered: a mapping applied; proposed: none yet. */
  source: 'exact' | 'given' | 'remembered' | 'proposed'
  /** The mapping in force: every named header -> its field key, or null when not used. */
  applied: ColumnMap
  /** Named headers a given mapping leaves out that match no field: not used (say so). */
  leftOut: string[]
  /** What the values and names suggest (absent when the headers are exact). */
  proposal?: MappingProposal
  /** True when the header row has no problems under the mapping in force. */
  complete: boolean
  /** The header row's problems under the mapping in force (also among the file errors). */
  problems: string[]
}

interface PendingRow {
  cells: CellValue[]
  rowNumber: number
  /** Hidden in the sheet: read past once the header is known. */
  hidden: boolean
}

export class HeaderMapping {
  private readonly pending: PendingRow[] = []
  private readonly sample: string[][] = []
  private readonly names: Set<string>
  private state: Omit<MappingOutcome, 'proposal'> | null = null
  private proposal: MappingProposal | null = null
  /** The filled rows above the header row, read past as a title or notes. */
  readonly passedOver: number[] = []

  constructor(
    private readonly schema: ListingInputSchema | null,
    private readonly fields: ReadonlyMap<string, SchemaField>,
    private readonly given: ColumnMap | undefined,
    private readonly remembered: Record<string, ColumnMap> | undefined,
  ) {
    this.names = new Set(
      schema
        ? [...schema.fields.flatMap((f) => [f.key, f.label])].filter(Boolean).map(looseKey)
        : [],
    )
    for (const c of schema?.columns ?? [])
      if (c.headerLabel) this.names.add(looseKey(c.headerLabel))
  }

  /**
   * A non-blank row above the header. Answers the rows to go on with (the header first) once
   * the header is known, else null while looking ahead.
   */
  offer(cells: CellValue[], rowNumber: number, hidden = false): PendingRow[] | null {
    this.pending.push({ cells, rowNumber, hidden })
    const namesAField = (row: PendingRow) =>
      row.cells.some((c) => !isBlank(c) && this.names.has(looseKey(cellText(c))))
    if (this.pending.length === 1 && (!this.schema || namesAField(this.pending[0]!)))
      return this.pending.splice(0)
    if (this.pending.length < HEADER_LOOKAHEAD) return null
    return this.flush()
  }

  /** The rows held while looking ahead, from the header on (at the end of the sheet too). */
  flush(): PendingRow[] | null {
    if (this.pending.length === 0) return null
    const texts = this.pending.map((row) =>
      row.cells.map((c) => (isBlank(c) ? null : cellText(c).trim())),
    )
    const rows = this.pending.splice(0)
    const at = findHeaderRow(texts, this.schema)
    this.passedOver.push(...rows.slice(0, at).map((row) => row.rowNumber))
    return rows.slice(at)
  }

  /** A header row's texts (null: blank); a set-aside workbook's Problem column counts as blank. */
  texts(cells: CellValue[]): (string | null)[] {
    return cells.map((cell) => {
      const text = isBlank(cell) ? null : cellText(cell).trim()
      return text === SET_ASIDE_PROBLEM ? null : text
    })
  }

  /** The columns of the header row under the mapping that applies. */
  columns(
    texts: (string | null)[],
    matched: { columns: (SchemaField | null)[]; problems: string[] },
    rowNumber: number,
  ): { columns: (SchemaField | null)[]; problems: string[] } {
    if (!this.schema) return matched
    const remembered = this.remembered?.[headersKey(texts)]
    const usable = remembered && unknownKeys(remembered, this.schema).length === 0
    let source: MappingOutcome['source'] = 'proposed'
    let result = matched
    if (this.given) {
      source = 'given'
      result = applyColumnMap(texts, matched.columns, this.given, this.fields)
    } else if (matched.problems.length === 0) {
      source = 'exact'
    } else if (usable) {
      source = 'remembered'
      result = applyColumnMap(texts, matched.columns, remembered, this.fields)
    }
    const applied: ColumnMap = {}
    texts.forEach((text, i) => {
      if (text !== null) applied[text] = result.columns[i]?.key ?? null
    })
    this.state = {
      headerRow: rowNumber,
      headers: texts,
      source,
      applied,
      leftOut: this.given ? leftOutColumns(texts, result.columns, this.given) : [],
      complete: result.problems.length === 0,
      problems: result.problems,
    }
    return result
  }

  /**
   * True while the columns wait for the user to confirm a mapping: the cells of the columns
   * that match are checked as always, but a required column missing from the header is not
   * listed again in every row.
   */
  get awaitingMapping(): boolean {
    return this.state?.source === 'proposed'
  }

  /**
   * One data row's cells, kept while the sample is short. The proposal is made as soon as the
   * sample is full, so it is ready a few rows after the header, however long the sheet.
   */
  addSample(cells: CellValue[]) {
    if (!this.state || this.state.source === 'exact' || this.sample.length >= SAMPLE_ROWS) return
    this.sample.push(
      this.state.headers.map((_, i) => (isBlank(cells[i]) ? '' : cellText(cells[i]!))),
    )
    if (this.sample.length === SAMPLE_ROWS) this.propose()
  }

  /** The proposal from the header and the sample so far (made once). */
  propose(): MappingProposal | null {
    if (!this.schema || !this.state || this.state.source === 'exact') return null
    this.proposal ??= proposeMapping(this.state.headers, this.sample, this.schema)
    return this.proposal
  }

  /** What the read found about the columns (undefined without a schema or a header). */
  outcome(): MappingOutcome | undefined {
    if (!this.schema || !this.state) return undefined
    if (this.state.source === 'exact') return { ...this.state }
    return { ...this.state, proposal: this.propose()! }
  }
}
