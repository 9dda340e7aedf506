// Modules import one way (DESIGN.md): no import circle anywhere in src, type imports included.
// Each file's imports are read with TypeScript's own import scanner (`preProcessFile`: imports,
// type imports, re-exports and `import()`, without parsing the whole file), the relative ones
// resolved as the bundler does, and the graph's strongly connected parts looked for: any part
// of more than one file, or a file importing itself, is a circle.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { expect, it } from 'vitest'

const src = fileURLToPath(new URL('../../src', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The file a relative specifier names, as the bundler finds it (null: none in src). */
function resolved(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''))
  const candidates = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => base + end)
  return candidates.find(isFile) ?? null
}

/** Each file's imports of other files in src. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolved(file, specifier))
      .filter((target): target is string => target !== null)
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The circles of a graph: its strongly connected parts of two files or more, and self-imports. */
function circles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative (a deep chain of imports must not overflow the stack).
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const found: string[][] = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const edges = graph.get(frame.node) ?? []
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, edge: 0 })
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const part: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        part.push(member)
      } while (member !== frame.node)
      if (part.length > 1 || edges.includes(frame.node)) found.push(part)
    }
  }
  return found
}

it('has no circular imports in src', () => {
  const graph = importGraph(src)
  expect(graph.size).toBeGreaterThan(300)
  expect(circles(graph).map((part) => part.map((file) => relative(src, file)))).toEqual([])
})

it('finds a circle where there is one, and none where there is none', () => {
  const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges))
  expect(circles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([])
  expect(circles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })).map((p) => p.sort())).toEqual([
    ['a', 'b', 'c'],
  ])
  expect(circles(g({ a: ['a'] }))).toEqual([['a']])
  expect(circles(g({ a: ['b', 'c'], b: ['a'], c: ['d'], d: ['c'] })).length).toBe(2)
})

it('reads type imports, re-exports, import() and folders as imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sr-circles-'))
  mkdirSync(join(dir, 'folder'))
  const files: Record<string, string> = {
    'a.ts': "import type { B } from './b'\nexport const a = 1\n",
    'b.ts': "export * from './folder'\nexport type B = number\n",
    'folder/index.ts': "export const later = () => import('../c.js')\n",
    'c.tsx': "import { a } from './a'\nexport const c = a\n",
    'd.ts': "import { a } from './a'\nimport 'node:fs'\nexport const d = a\n",
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  const found = circles(importGraph(dir)).map((part) => part.map((f) => relative(dir, f)).sort())
  expect(found).toEqual([['a.ts', 'b.ts', 'c.tsx', 'folder/index.ts']])
})
