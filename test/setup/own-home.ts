/**
 * Each test file gets a home folder of its own. The app's default outputs folder is
 * ~/Downloads/Skill Runner, and runs save their outputs there when they end (the "keep
 * outputs" setting, on by default): without this, tests would fill the real home of whoever
 * runs them. The folder goes when the file's tests are done, so runs of the suite do not pile
 * them up in the temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

const home = mkdtempSync(join(tmpdir(), 'sr-test-home-'))
process.env.HOME = home
afterAll(() => rmSync(home, { recursive: true, force: true, maxRetries: 3 }))
