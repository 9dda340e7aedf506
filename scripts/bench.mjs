// Runs every benchmark in bench/ (files named *.bench.ts), each in a process of its own so that
// peak memory figures do not mix. `npm run bench -- NAME` runs only the ones whose name has NAME.
// After each, and for the whole run, it prints how much of the machine's CPU time the host gave
// to others (steal, from /proc/stat, on Linux): on a shared host a wall-clock figure that missed
// while the steal was high says more about the machine than about the code.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
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
/** The machine's CPU time so far, by kind (jiffies), or null where /proc/stat is not there. */
function cpuTimes() {
  if (!existsSync('/proc/stat')) return null
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .slice(1, 9)
    .map(Number)
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal }
}

/** Between two readings: the share of all CPU time stolen by the host, and of the time not idle. */
function stealLine(from, to) {
  if (!from || !to) return null
  const steal = to.steal - from.steal
  const all = to.busy - from.busy + (to.idle - from.idle) + steal
  const notIdle = to.busy - from.busy + steal
  if (all <= 0) return null
  const pct = (n, d) => (d > 0 ? ((100 * n) / d).toFixed(1) : '0.0')
  return `CPU time taken by the host for other machines (steal): ${pct(steal, all)}% of all, ${pct(steal, notIdle)}% of the time not idle`
}

let failed = 0
const began = cpuTimes()
for (const file of files) {
  console.log(`\n=== ${file}`)
  const before = cpuTimes()
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join('bench', file)], {
    cwd: root,
    stdio: 'inherit',
  })
  if (r.status !== 0) failed++
  const line = stealLine(before, cpuTimes())
  if (line) console.log(`  (machine while it ran: ${line})`)
}
const whole = stealLine(began, cpuTimes())
if (whole && files.length > 1) console.log(`\nthe whole run: ${whole}`)
process.exit(failed ? 1 : 0)
