/**
 * Loads libsql's native module, when a database is first opened rather than when the process
 * starts: most command-line answers (help, version, completion) never open one.
 *
 * On Linux, libsql's loader asks whether the C library is glibc or musl twice: through
 * detect-libc (whose module loads node:child_process, and with it net and dgram, for a fallback
 * it rarely needs) and by taking a whole diagnostic report of the process
 * (process.report.getReport: its stacks, heap, handles and every shared object), 5 to 15 ms of
 * each command's start, to read one header field. We answer that question first as detect-libc
 * itself does when it can (from the text of the system's ldd), and while libsql loads hand it a
 * detect-libc that gives that answer and a report of just that field. Anything else, or any
 * doubt, leaves libsql to load as it would alone.
 */
import { readFileSync } from 'node:fs'
import { createRequire, Module } from 'node:module'
import type Database from 'libsql'

/** Where detect-libc reads the system's ldd. */
const LDD_PATH = '/usr/bin/ldd'

export function loadLibsql(): typeof Database {
  const require = createRequire(import.meta.url)
  const alone = () => require('libsql') as typeof Database
  if (process.platform !== 'linux' || !process.report) return alone()
  if (familyFromLdd() !== 'glibc') return alone()
  const report = process.report
  const getReport = Object.getOwnPropertyDescriptor(report, 'getReport')
  if (!getReport?.writable) return alone()
  const standIn = detectLibcStandIn(createRequire(require.resolve('libsql')))
  report.getReport = () => ({ header: { glibcVersionRuntime: 'glibc' } }) as never
  try {
    return alone()
  } finally {
    Object.defineProperty(report, 'getReport', getReport)
    standIn?.remove()
  }
}

/** glibc or musl as the text of ldd says (detect-libc's first way to know), else null. */
function familyFromLdd(): 'glibc' | 'musl' | null {
  let text: string
  try {
    text = readFileSync(LDD_PATH, 'utf8')
  } catch {
    return null
  }
  if (text.includes('musl')) return 'musl'
  return text.includes('GLIBC') ? 'glibc' : null
}

/**
 * Puts a detect-libc that answers glibc where libsql's require finds it, until `remove` takes it
 * away again (whoever asks later gets the real one). Null when detect-libc is already loaded or
 * not beside libsql: libsql then uses what it finds.
 */
function detectLibcStandIn(libsqlRequire: NodeJS.Require): { remove(): void } | null {
  let path: string
  try {
    path = libsqlRequire.resolve('detect-libc')
  } catch {
    return null
  }
  if (libsqlRequire.cache[path]) return null
  const standIn = new Module(path)
  standIn.filename = path
  standIn.loaded = true
  standIn.exports = { GLIBC: 'glibc', MUSL: 'musl', familySync: () => 'glibc' }
  libsqlRequire.cache[path] = standIn
  return {
    remove: () => {
      if (libsqlRequire.cache[path] === standIn) delete libsqlRequire.cache[path]
    },
  }
}
