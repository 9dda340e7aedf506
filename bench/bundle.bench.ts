/**
 * Sizes of what the app ships: the renderer (every start loads it, and browser mode serves it),
 * main, preload and the CLI bundle. Builds first (electron-vite build and the CLI bundle), so the
 * figures are of the current sources. Raw and gzipped sizes; the renderer is checked for being
 * minified, and against what issue 13 measured before minification (880 KB / 179 KB gzipped),
 * so a change that drops minification shows here.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { root } from './support'

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
for (const [cmd, args] of [
  [npx, ['electron-vite', 'build', '--logLevel', 'warn']],
  [process.execPath, [join(root, 'scripts/build-cli.mjs')]],
] as const) {
  const r = spawnSync(cmd, [...args], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`)
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  )
}

interface Size {
  raw: number
  gzip: number
}
function sizeOf(paths: string[]): Size {
  let raw = 0
  let gzip = 0
  for (const p of paths) {
    raw += statSync(p).size
    gzip += gzipSync(readFileSync(p), { level: 9 }).length
  }
  return { raw, gzip }
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const shipped = (dir: string, ext: RegExp) =>
  files(join(root, 'out', dir)).filter((p) => ext.test(p) && !p.endsWith('.map'))

const parts: [string, string[]][] = [
  ['renderer JS', shipped('renderer', /\.js$/)],
  ['renderer CSS', shipped('renderer', /\.css$/)],
  ['renderer total (js, css, html)', shipped('renderer', /\.(js|css|html)$/)],
  ['main (incl. workers)', shipped('main', /\.js$/)],
  ['preload', shipped('preload', /\.c?js$/)],
  ['CLI (out/cli)', shipped('cli', /\.js$/)],
]
console.log(`${'part'.padEnd(32)}${'raw'.padStart(12)}${'gzip -9'.padStart(12)}  files`)
const sizes = new Map<string, Size>()
for (const [name, paths] of parts) {
  const size = sizeOf(paths)
  sizes.set(name, size)
  console.log(
    `${name.padEnd(32)}${kb(size.raw).padStart(12)}${kb(size.gzip).padStart(12)}  ${paths
      .map((p) => relative(join(root, 'out'), p))
      .join(', ')}`,
  )
}

const check = (ok: boolean, text: string) => console.log(`${ok ? 'MET ' : 'MISS'} ${text}`)
const js = sizes.get('renderer JS')!
// The target is a minified renderer. A minified bundle is a few very long lines; an
// unminified one is short, indented lines (about 40 characters a line before minification).
const text = js.raw ? readFileSync(shipped('renderer', /\.js$/)[0]!, 'utf8') : ''
const perLine = Math.round(text.length / Math.max(1, text.split('\n').length))
check(perLine > 1000, `renderer JS is minified (${perLine} characters a line; target over 1000)`)
// Reference figures from issue 13, measured before minification: 880 KB raw, 179 KB gzipped
// (and 381 / 114 KB for that same UI minified). The UI has grown since; it must still load in
// less than the unminified one did.
check(
  js.gzip < 179 * 1024,
  `renderer JS gzipped ${kb(js.gzip)} (target under 179 KB, the unminified bundle of issue 13; raw ${kb(js.raw)} vs 880 KB then)`,
)

// The first screen: the entry script index.html names and the chunks it preloads, the JavaScript
// a window loads before it shows anything. Screens shown later come as chunks of their own
// (src/renderer/components/lazy-screens.tsx). Issue 31 measured 533 KB in one file before they did.
const html = readFileSync(join(root, 'out/renderer/index.html'), 'utf8')
const firstScreen = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) =>
  join(root, 'out/renderer', m[1]!),
)
const first = sizeOf(firstScreen)
check(
  first.raw <= 400 * 1024,
  `first screen JS ${kb(first.raw)} minified, ${kb(first.gzip)} gzipped in ${firstScreen.length} files (target at most 400 KB minified; 533 KB in one file before)`,
)
