// Size limits, checked in `npm test`: no source file in src/ over 400 lines, no function over 80
// (outermost and nested alike), and ARCHITECTURE.md a map that fits on a page: at most 1,500 words
// and no line over 110 characters outside its picture (a code block). `node scripts/code-sizes.mjs`
// lists each one over its limit and exits 1 when there is any.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const root = join(import.meta.dirname, '..')
const FUNCTION_LINES = 80
const FILE_LINES = 400
const MAP_WORDS = 1500
const MAP_LINE = 110

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
  const fileLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  if (fileLines > FILE_LINES) long.push(`${relative(root, file)} ${fileLines} lines in the file`)
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = end - start + 1
      if (lines > FUNCTION_LINES) long.push(`${relative(root, file)}:${start + 1} ${nameOf(node)} ${lines} lines`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
}
let inPicture = false
let mapWords = 0
readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8').split('\n').forEach((line, i) => {
  if (line.startsWith('```')) inPicture = !inPicture
  if (inPicture || line.startsWith('```')) return
  mapWords += line.split(/\s+/).filter(Boolean).length
  if (line.length > MAP_LINE) long.push(`ARCHITECTURE.md:${i + 1} a line of ${line.length} characters`)
})
if (mapWords > MAP_WORDS) long.push(`ARCHITECTURE.md ${mapWords} words outside its picture`)
for (const line of long) console.log(line)
console.log(
  long.length === 0
    ? `code sizes: no file over ${FILE_LINES} lines, no function over ${FUNCTION_LINES}, a map of ${mapWords} words`
    : `code sizes: ${long.length} over the limits (files ${FILE_LINES} lines, functions ${FUNCTION_LINES})`,
)
process.exit(long.length ? 1 : 0)
