/**
 * Loads libsql's native module, when a database is first opened rather than when the process
 * starts: most command-line answers (help, version, completion) never open one.
 *
 * On Linux, libsql's loader asks whether the C library is glibc or musl by taking a whole
 * diagnostic report of the process (process.report.getReport: its stacks, heap, handles and every
 * shared object), 5 to 15 ms of each command's start, to read one header field. We answer that
 * question first with the cheap check libsql's loader also makes (detect-libc, which reads the system's
 * ldd), and hand the loader a report of just that field while it loads. Anything else, or any
 * doubt, leaves the loader to ask the real report.
 */
import { createRequire } from 'node:module'
import type Database from 'libsql'

export function loadLibsql(): typeof Database {
  const require = createRequire(import.meta.url)
  if (process.platform !== 'linux' || !process.report) return require('libsql') as typeof Database
  const libsqlRequire = createRequire(require.resolve('libsql'))
  let glibc = false
  try {
    const detect = libsqlRequire('detect-libc') as { familySync(): string | null; GLIBC: string }
    glibc = detect.familySync() === detect.GLIBC
  } catch {
    // No detect-libc beside libsql: the loader asks the report itself.
  }
  if (!glibc) return require('libsql') as typeof Database
  const report = process.report
  const getReport = Object.getOwnPropertyDescriptor(report, 'getReport')
  if (!getReport?.writable) return require('libsql') as typeof Database
  report.getReport = () => ({ header: { glibcVersionRuntime: 'glibc' } }) as never
  try {
    return require('libsql') as typeof Database
  } finally {
    Object.defineProperty(report, 'getReport', getReport)
  }
}
