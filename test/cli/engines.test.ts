// Which Node the project promises, checked against what README.md says, what package.json and
// the lockfile declare, and how our own code is built. On the recommended Node (22.13+ or 24+)
// `npm install` must print no EBADENGINE warning. Node 20.19+ runs the CLI, browser mode and the
// tests; there npm may warn about a few packages of Electron's toolchain, and README.md names
// which. Whether those packages still warn is theirs to decide, so nothing here requires a
// warning: only that any warning comes from a package README.md calls expected.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const require = createRequire(import.meta.url)
const semver = require('semver') as {
  subset(a: string, b: string): boolean
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean
  minVersion(range: string): { version: string } | null
  coerce(version: string): { version: string } | null
  lte(a: string, b: string): boolean
  major(version: string): number
  minor(version: string): number
}
const readJson = <T>(file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as T
const pkg = readJson<{ engines: { node: string } }>('package.json')
const lock = readJson<{
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>
}>('package-lock.json')
const readme = readFileSync(join(root, 'README.md'), 'utf8')

/** The first group of `pattern` in README.md; fails the test when README no longer says it. */
function fromReadme(pattern: RegExp): string {
  const found = pattern.exec(readme)
  expect(found, `README.md should say ${pattern}`).not.toBeNull()
  return found![1]!
}

// What README.md promises, read from its "Set up" section.
const recommended = `${fromReadme(/\*\*Node\.js (\d+\.\d+) or newer\*\*/)}.0`
const oldest = `${fromReadme(/\*\*Node (\d+\.\d+) or newer also works\*\*/)}.0`
const quotedRange = fromReadme(/`engines` in\s+package\.json says `([^`]+)`/)
// The recommended Node: its LTS line from `recommended` on, and every Node from 24 on.
const RECOMMENDED_RANGE = '^22.13.0 || >=24.0.0'

/** The packages README.md calls expected to warn on Node 20, from its EBADENGINE sentence. */
function expectedToWarn(): Set<string> {
  const sentence = fromReadme(/`EBADENGINE` warnings([\s\S]*?)They are expected/)
  return new Set([...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
}

/** Each locked package with a Node range in its `engines`, by package name. */
function lockedNodeRanges(): [string, string][] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined
      return range ? [[path.replace(/^.*node_modules\//, ''), range] as [string, string]] : []
    })
}

/** The packages npm would print EBADENGINE for on `version` (npm's own test: prereleases pass). */
function warningOn(version: string): string[] {
  const refusing = lockedNodeRanges().filter(
    ([, range]) => !semver.satisfies(version, range, { includePrerelease: true }),
  )
  return [...new Set(refusing.map(([name]) => name))].sort()
}

// The first Node each TypeScript `lib` year runs on in full (e.g. ES2023's toSorted: Node 20).
const NODE_FOR_LIB: Record<string, string> = {
  es2020: '14.0.0',
  es2021: '15.0.0',
  es2022: '16.9.0',
  es2023: '20.0.0',
  es2024: '22.0.0',
}

describe('Node versions', () => {
  it('package.json declares the Node versions README.md names', () => {
    expect(quotedRange).toBe(pkg.engines.node)
    expect(semver.minVersion(pkg.engines.node)?.version).toBe(oldest)
    expect(semver.minVersion(RECOMMENDED_RANGE)?.version).toBe(recommended)
    expect(semver.subset(RECOMMENDED_RANGE, pkg.engines.node)).toBe(true)
    // README: "Node 20.18 and older cannot unpack Electron".
    expect(
      semver.satisfies(`${semver.major(oldest)}.${semver.minor(oldest) - 1}.0`, pkg.engines.node),
    ).toBe(false)
  })

  it('every locked package accepts the recommended Node, so npm prints no warning there', () => {
    const refusing = lockedNodeRanges().filter(
      ([, range]) => !semver.subset(RECOMMENDED_RANGE, range),
    )
    expect(refusing).toEqual([])
  })

  it('on the oldest declared Node, npm warns only about packages README.md calls expected', () => {
    const expected = expectedToWarn()
    expect(expected.size).toBeGreaterThan(0)
    expect(warningOn(oldest).filter((name) => !expected.has(name))).toEqual([])
  })

  it('our own code is built and type-checked for the oldest declared Node', () => {
    // Node's types from the oldest declared line: an API added later does not type-check.
    const types = lock.packages['node_modules/@types/node']?.version ?? ''
    expect(semver.lte(`${semver.major(types)}.${semver.minor(types)}.0`, oldest)).toBe(true)
    // The CLI bundle's syntax target.
    const buildCli = readFileSync(join(root, 'scripts', 'build-cli.mjs'), 'utf8')
    const target = /target:\s*'node([\d.]+)'/.exec(buildCli)?.[1] ?? ''
    expect(semver.lte(semver.coerce(target)?.version ?? '99.0.0', oldest)).toBe(true)
    // The language library the Node-side code may use.
    const tsconfig = readJson<{ compilerOptions: { lib: string[] } }>('tsconfig.node.json')
    for (const lib of tsconfig.compilerOptions.lib) {
      const needs = NODE_FOR_LIB[lib.toLowerCase()]
      expect(needs, `a Node version for lib ${lib} in this test's table`).toBeDefined()
      expect(semver.lte(needs!, oldest), `lib ${lib} needs Node ${needs}`).toBe(true)
    }
  })

  it.runIf(semver.satisfies(process.versions.node, pkg.engines.node))(
    'the command line starts on this Node, which package.json declares',
    () => {
      const cli = spawnSync(process.execPath, [join(root, 'bin', 'skill-runner.js'), '--version'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(cli.stderr).toBe('')
      expect(cli.status).toBe(0)
      expect(cli.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    },
  )
})
