// Runs every benchmark in bench/ (files named *.bench.ts), each in a process of its own so that
// peak memory figures do not mix. `npm run bench -- NAME` runs only the ones whose name has NAME.
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const filter = process.argv[2] ?? ''
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort()
if (files.length === 0) {
  console.error(`No benchmark matches "${filter}".`)
  process.exit(2)
}
let failed = 0
for (const file of files) {
  console.log(`\n=== ${file}`)
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', file)], {
    cwd: root,
    stdio: 'inherit',
  })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
