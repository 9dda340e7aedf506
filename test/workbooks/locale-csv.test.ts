// csv files as Excel saves them in Germany, France and Spain (test/fixtures/locales): decimal
// commas with thousands separators, day-first dates, the locale's TRUE and FALSE, and a
// whole-run field given as a column.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readInputWorkbook } from '../../src/core/workbooks'
import { schemaOf } from './support/schemas'

const fixtures = join(__dirname, '..', 'fixtures', 'locales')

/** The same five fields under each locale's headers; the tone applies to the whole run. */
function schema(labels: string[], tones: string[]) {
  const [name, price, date, eco, tone] = labels as [string, string, string, string, string]
  return schemaOf('shop-copy', 'Shop copy', [
    { key: 'name', label: name, type: 'string', required: true },
    { key: 'price', label: price, type: 'number' },
    { key: 'date', label: date, type: 'date' },
    { key: 'eco', label: eco, type: 'boolean' },
    { key: 'tone', label: tone, type: 'enum', scope: 'run', enumValues: tones },
  ])
}
const german = schema(['Produkt', 'Preis', 'Datum', 'Öko', 'Ton'], ['freundlich', 'förmlich'])
const french = schema(['Produit', 'Prix', 'Date', 'Écologique', 'Ton'], ['amical', 'formel'])
const spanish = schema(['Producto', 'Precio', 'Fecha', 'Ecológico', 'Tono'], ['amable', 'formal'])

const read = (name: string, of: typeof german) =>
  readInputWorkbook({ path: join(fixtures, name) }, of, { checkFiles: false })

describe('csv saved by Excel in other countries', () => {
  it('German, Windows-1252: 1.299,00, 24.12.2026, WAHR and FALSCH', async () => {
    const result = await read('excel_de_cp1252.csv', german)
    expect(result.fileErrors).toEqual([])
    expect(result.rowErrors).toEqual([])
    expect(result.rows).toEqual([
      {
        name: 'Schneidebrett aus Bambus',
        price: 1299,
        date: '2026-12-24',
        eco: true,
        tone: 'freundlich',
      },
      { name: 'Käsemesser', price: 12.5, date: '2027-02-01', eco: false, tone: 'freundlich' },
      {
        name: 'Tischdecke „Sommer“',
        price: -3400.5,
        date: '2027-04-03',
        eco: true,
        tone: 'freundlich',
      },
    ])
    expect(result.notices).toContain(
      'Read as Windows-1252 (it is not UTF-8) text, fields separated by “;”.',
    )
  })

  it('French, UTF-8 with BOM: spaces (narrow, no-break) between thousands, VRAI and FAUX', async () => {
    const result = await read('excel_fr_utf8bom.csv', french)
    expect(result.fileErrors).toEqual([])
    expect(result.rowErrors).toEqual([])
    expect(result.rows.map((r) => [r.price, r.eco])).toEqual([
      [1299, true],
      [12345.5, false],
      [7.25, true],
    ])
  })

  it('reads 03/04/2027 as the column says: 24/12/2026 further down puts the day first', async () => {
    const result = await read('excel_fr_utf8bom.csv', french)
    expect(result.rows.map((r) => r.date)).toEqual(['2027-04-03', '2026-12-24', '2027-06-05'])
    expect(result.notices).toContain(
      "Dates in “Date” are read with the day first, as '24/12/2026' in row 3 shows.",
    )
  })

  it('Spanish, Windows-1252: VERDADERO and FALSO, 02/01/2027 day first', async () => {
    const result = await read('excel_es_cp1252.csv', spanish)
    expect(result.fileErrors).toEqual([])
    expect(result.rows).toEqual([
      { name: 'Tabla de cortar', price: 1299, date: '2026-12-24', eco: true, tone: 'amable' },
      { name: 'Cuchillo de queso', price: 12.5, date: '2027-01-02', eco: false, tone: 'amable' },
    ])
  })

  it('asks when no date of the column tells whether the day or the month comes first', async () => {
    const result = await read('excel_fr_ambiguous_utf8bom.csv', french)
    expect(result.valid).toBe(false)
    expect(result.fileErrors).toEqual([
      "“Date”: dates such as '03/04/2027' (row 2 and 1 more) could have the day or the month first, and no date in the column tells which. Write them year first (for example 2026-12-24) and check again.",
    ])
  })

  it('refuses a date against the order the column has shown', async () => {
    const bytes = Buffer.from('Produit;Date;Ton\r\nA;24/12/2026;amical\r\nB;12/25/2026;amical\r\n')
    const result = await readInputWorkbook({ bytes, filename: 'mixed.csv' }, french)
    expect(result.rowErrors.map((e) => e.error)).toEqual([
      "Row 3, Date: '12/25/2026' has the month first, but '24/12/2026' in row 2 has the day first: write every date of the column the same way",
    ])
  })

  it('takes a whole-run field given as a column with one value as the run’s value, and says so', async () => {
    const result = await read('excel_de_cp1252.csv', german)
    expect(result.notices).toContain(
      "“Ton” is freundlich in every row: that is the run's value (it applies to the whole run).",
    )
    const bytes = Buffer.from('Produkt;Ton\r\nA;freundlich\r\nB;förmlich\r\n')
    const differing = await readInputWorkbook({ bytes, filename: 'tone.csv' }, german)
    expect(differing.fileErrors).toEqual([
      '“Ton” applies to the whole run, so it takes one value, but row 2 holds freundlich and row 3 holds förmlich. Keep one value in every row (or leave the column out and give the value for the run) and check again.',
    ])
  })
})
