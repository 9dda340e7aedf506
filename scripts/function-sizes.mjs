// Lists functions longer than a limit (default 80 lines) in src/, outermost and nested alike:
// `node scripts/function-sizes.mjs [limit]`. Exits 1 when any is found, so `npm test` can hold
// the line (ARCHITECTURE.md: no function over 80 lines).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const root = join(import.meta.dirname, '..')
const limit = Number(process.argv[2] ?? 80)

function files(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) files(path, out)
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  return '(anonymous)'
}

const long = []
for (const file of files(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = end - start + 1
      if (lines > limit) long.push(`${relative(root, file)}:${start + 1} ${nameOf(node)} ${lines} lines`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}
for (const line of long) console.log(line)
console.log(`${long.length} function${long.length === 1 ? '' : 's'} over ${limit} lines`)
process.exit(long.length ? 1 : 0)
