// `skill-runner web` serves only this computer: any other address to listen on is refused as a
// mistake the user can correct (exit 2), with the safe way to reach it from elsewhere, and
// before anything is started.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from '../helpers/cli'

describe('skill-runner web --host', () => {
  it.each(['0.0.0.0', '::', '192.168.1.20', 'example.com'])(
    'refuses to listen on %s, says why and how to reach it through an SSH tunnel',
    async (host) => {
      const home = join(mkdtempSync(join(tmpdir(), 'sr-web-host-')), 'data')
      const result = await runCliCaptured(['web', '--host', host], { SKILL_RUNNER_HOME: home })
      expect(result.code).toBe(2)
      expect(result.stderr).not.toMatch(/bug/i)
      expect(result.stderr).toContain(host)
      expect(result.stderr).toMatch(/this computer only/)
      expect(result.stderr).toMatch(/SSH tunnel/)
      expect(result.stderr).toMatch(/ssh -L (\d+):127\.0\.0\.1:\1 /)
      // Refused before the engine opened its data folder or started anything.
      expect(existsSync(home)).toBe(false)
    },
  )
})
