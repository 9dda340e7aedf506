// The built-in Sandbox starts only when a connection first asks it something, and a template's
// schema it gave since this program was installed is its answer without starting it again (the
// command line's validate waits for no server). A copy older than the program is asked again.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Engine } from '../../src/core/engine'
import { checkWorkbook } from '../../src/core/flows/prepare'
import { inProcessBuiltInSandbox, testEngine } from '../helpers/engine'

const homes: string[] = []
const engines: Engine[] = []
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()))
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

/** An engine on `home` that counts how often it starts the built-in Sandbox. */
function countingEngine(home: string, programSinceMs: number | undefined) {
  const start = inProcessBuiltInSandbox()
  const counted = { starts: 0 }
  const engine = testEngine(home, {
    ...(programSinceMs !== undefined ? { programSinceMs } : {}),
    startBuiltInSandbox: (options) => {
      counted.starts += 1
      return start(options)
    },
  })
  engines.push(engine)
  return { engine, counted }
}

async function validateRowEcho(engine: Engine, csv: string) {
  const connection = await engine.connect()
  const { found, result } = await checkWorkbook(engine, connection, csv, {
    target: { kind: 'template', templateId: 'row-echo' },
    onThisThreadUpToBytes: 64 * 1024,
  })
  return { fromCache: found?.fromCache, valid: result.valid }
}

describe('a template of the built-in Sandbox', () => {
  const setUp = () => {
    const home = mkdtempSync(join(tmpdir(), 'sr-builtin-known-'))
    homes.push(home)
    const csv = join(home, 'three.csv')
    writeFileSync(csv, 'Message,Sequence number\nhello,1\nagain,2\nthree,3\n')
    return { home, csv }
  }

  it('is read from this computer once the Sandbox gave it to this program: no start', async () => {
    const { home, csv } = setUp()
    const first = countingEngine(home, Date.now() - 1000)
    expect(await validateRowEcho(first.engine, csv)).toEqual({ fromCache: false, valid: true })
    expect(first.counted.starts).toBe(1)
    await first.engine.close()

    const second = countingEngine(home, Date.now() - 1000)
    const connection = await second.engine.connect()
    expect(second.counted.starts).toBe(0)
    expect(await validateRowEcho(second.engine, csv)).toEqual({ fromCache: false, valid: true })
    expect(second.counted.starts).toBe(0)
    // Anything the service itself must answer starts it, on the same connection.
    expect((await connection.client.templateSchema('row-echo')).templateId).toBe('row-echo')
    expect(second.counted.starts).toBe(1)
    expect(connection.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/)
  })

  it('is asked again when the program is newer than the saved copy, or says nothing of its age', async () => {
    const { home, csv } = setUp()
    const first = countingEngine(home, Date.now() - 1000)
    await validateRowEcho(first.engine, csv)
    await first.engine.close()

    // Installed after the copy was saved: the next millisecond (a spin of at most one).
    const saved = Date.now()
    while (Date.now() <= saved);
    const installedAt = Date.now()
    const upgraded = countingEngine(home, installedAt)
    expect(await validateRowEcho(upgraded.engine, csv)).toEqual({ fromCache: false, valid: true })
    expect(upgraded.counted.starts).toBe(1)
    await upgraded.engine.close()
    // The same schema, answered again by the newer program, is now that program's.
    const again = countingEngine(home, installedAt)
    await validateRowEcho(again.engine, csv)
    expect(again.counted.starts).toBe(0)
    await again.engine.close()

    const unknown = countingEngine(home, undefined)
    await validateRowEcho(unknown.engine, csv)
    expect(unknown.counted.starts).toBe(1)
  })
})
