/**
 * The history database reuses compiled statements (storage/db.ts). A reused statement must read
 * what another connection wrote since (the app and the command line share one file), and a
 * database that sees more distinct statements than it keeps still answers each of them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDb, type Db } from '../../src/core/storage/db'

const opened: Db[] = []
let dir = ''
afterEach(() => {
  for (const db of opened.splice(0)) db.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function twoConnections(): [Db, Db] {
  dir = mkdtempSync(join(tmpdir(), 'sr-db-statements-'))
  const path = join(dir, 'history.db')
  const app = openDb(path)
  const cli = openDb(path)
  opened.push(app, cli)
  app.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)')
  return [app, cli]
}

it('gives back the same statement for the same SQL, which reads what another connection wrote', () => {
  const [app, cli] = twoConnections()
  const count = 'SELECT count(*) AS n FROM notes'
  expect(app.prepare(count)).toBe(app.prepare(count))
  expect(app.prepare(count).get()).toMatchObject({ n: 0 })
  cli.prepare('INSERT INTO notes (text) VALUES (?)').run('from the command line')
  expect(app.prepare(count).get()).toMatchObject({ n: 1 })
  const one = 'SELECT text FROM notes WHERE id = ?'
  expect(app.prepare(one).get(1)).toMatchObject({ text: 'from the command line' })
  cli.prepare('UPDATE notes SET text = ? WHERE id = ?').run('changed', 1)
  expect(app.prepare(one).get(1)).toMatchObject({ text: 'changed' })
  // A write on the reading connection is not held back by the statements it kept.
  app.exec('BEGIN IMMEDIATE')
  app.prepare('INSERT INTO notes (text) VALUES (?)').run('from the app')
  app.exec('COMMIT')
  expect(cli.prepare(count).get()).toMatchObject({ n: 2 })
})

it('answers every statement when more distinct ones come than it keeps', () => {
  const [app] = twoConnections()
  app.prepare('INSERT INTO notes (text) VALUES (?)').run('kept')
  // Distinct SQL texts (a list of ids of every length), far more than the statements kept.
  for (let size = 1; size <= 500; size += 1) {
    const marks = Array.from({ length: size }, () => '?').join(', ')
    const ids = Array.from({ length: size }, (_, i) => i + 1)
    expect(
      app.prepare(`SELECT count(*) AS n FROM notes WHERE id IN (${marks})`).get(ids),
    ).toMatchObject({ n: 1 })
  }
  expect(app.prepare('SELECT text FROM notes WHERE id = ?').get(1)).toMatchObject({ text: 'kept' })
})
