// Which Node the project documents, and whether npm agrees: on the documented Node (22.13+ or 24+),
// `npm install` must print no EBADENGINE warning, so every package in the lockfile has to accept
// it. Node 20.19+ runs the CLI, browser mode and the tests; there npm warns about the few
// packages of Electron's toolchain that declare 22.12+, and README.md names them.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)
const semver = require('semver') as {
  subset(a: string, b: string): boolean
  satisfies(version: string, range: string): boolean
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string }
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>
}
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const DOCUMENTED = '^22.13.0 || >=24.0.0'

function nodeRanges(): [string, string][] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      return range ? [[path.replace(/^.*node_modules\//, ''), range] as [string, string]] : []
    })
}

describe('Node versions', () => {
  it('accepts the documented Node in package.json and in every locked package', () => {
    expect(semver.subset(DOCUMENTED, pkg.engines.node)).toBe(true)
    const refusing = nodeRanges().filter(([, range]) => !semver.subset(DOCUMENTED, range))
    expect(refusing).toEqual([])
  })

  it('README documents the same Node, and names every package that warns on Node 20', () => {
    expect(readme).toMatch(/Node\.js 22\.13 or newer/)
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(true)
    const warnOn20 = nodeRanges()
      .filter(([, range]) => !semver.satisfies('20.19.0', range))
      .map(([name]) => name)
    expect(warnOn20.length).toBeGreaterThan(0)
    for (const name of new Set(warnOn20)) expect(readme).toContain(name)
  })
})
