/**
 * Each test file gets a home folder of its own. The app's default outputs folder is
 * ~/Downloads/Skill Runner, and runs now save their outputs there when they end (the "keep
 * outputs" setting, on by default): without this, tests would fill the real home of whoever
 * runs them.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.HOME = mkdtempSync(join(tmpdir(), 'sr-test-home-'))
