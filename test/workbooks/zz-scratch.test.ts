import { readFileSync } from 'node:fs'
import { it } from 'vitest'
import ExcelJS from 'exceljs'
import { readInputWorkbook } from '../../src/core/workbooks'
import { checkWorkbook } from '../../src/sandbox/workbooks/check-workbook'
import { schemaOf } from './support/schemas'

it('scratch', async () => {
  const schema = schemaOf('l', 'L', [
    { key: 'product', label: 'Product', type: 'string', required: true },
    { key: 'words', label: 'Words', type: 'integer' },
  ])
  const book = new ExcelJS.Workbook()
  const s = book.addWorksheet('Input')
  s.addRow(['Product', 'Words'])
  s.addRow(['a', 3]); s.addRow(['b', 'lots']); s.addRow(['c', 4])
  await book.xlsx.writeFile('/tmp/sa-scratch/in.xlsx')
  const r = await readInputWorkbook({ path: '/tmp/sa-scratch/in.xlsx' }, schema, { setAside: { path: '/tmp/sa-scratch/fix.xlsx', about: [] } })
  console.log(r.setAside)
  const v = await checkWorkbook(readFileSync('/tmp/sa-scratch/fix.xlsx'), 'fix.xlsx', schema)
  console.log(JSON.stringify(v, null, 1))
})
