// electron-builder's beforePack hook: puts the prebuilt native packages of the platform and
// architecture being packed (and only those) into build/native/current, which
// electron-builder.yml copies into the app's node_modules.
//
// libsql and the keyring binding ship their native code as one npm package per target
// (@libsql/darwin-arm64, @napi-rs/keyring-win32-x64-msvc, ...). npm installs only the host's,
// so packing arm64 on an x64 Mac (or the reverse) would ship an app that cannot open its
// database. This hook copies the target's package from node_modules when it is there, and
// otherwise fetches exactly that version with `npm pack` (the release machine has the
// network), so one machine can pack x64 and arm64. Both are N-API modules: no rebuild for
// Electron is needed.
//
// Also runnable by hand to see what a pack would take:
//   node scripts/native-modules.mjs darwin arm64
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const stagingDir = join(root, 'build', 'native', 'current')

// electron-builder's Arch enum (builder-util): 0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']

/** The per-target package names for a platform (process.platform style) and arch. */
export function nativePackagesFor(platform, arch) {
  const suffix = {
    'darwin-x64': ['darwin-x64', 'darwin-x64'],
    'darwin-arm64': ['darwin-arm64', 'darwin-arm64'],
    'linux-x64': ['linux-x64-gnu', 'linux-x64-gnu'],
    'linux-arm64': ['linux-arm64-gnu', 'linux-arm64-gnu'],
    'win32-x64': ['win32-x64-msvc', 'win32-x64-msvc'],
  }[`${platform}-${arch}`]
  if (!suffix) {
    throw new Error(
      `Skill Runner cannot be packed for ${platform}/${arch}: libsql publishes no prebuilt ` +
        'database module for it. Supported: macOS x64 and arm64, Linux x64 and arm64 (glibc), Windows x64.',
    )
  }
  return [
    { parent: 'libsql', name: `@libsql/${suffix[0]}` },
    { parent: '@napi-rs/keyring', name: `@napi-rs/keyring-${suffix[1]}` },
  ]
}

function versionOf(parent, name) {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', parent, 'package.json'), 'utf8'))
  const version = pkg.optionalDependencies?.[name]
  if (!version)
    throw new Error(`${parent} does not list ${name}; update scripts/native-modules.mjs`)
  return version
}

/** Copies (or fetches) the target's native packages into build/native/current/node_modules. */
export function stageNativePackages(platform, arch, log = console.log) {
  rmSync(stagingDir, { recursive: true, force: true })
  for (const { parent, name } of nativePackagesFor(platform, arch)) {
    if (!existsSync(join(root, 'node_modules', parent))) {
      log(`native-modules: ${parent} is not installed; skipping ${name}`)
      continue
    }
    const version = versionOf(parent, name)
    const target = join(stagingDir, 'node_modules', name)
    mkdirSync(dirname(target), { recursive: true })
    const installed = join(root, 'node_modules', name)
    const installedVersion = existsSync(join(installed, 'package.json'))
      ? JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version
      : null
    if (installedVersion === version) {
      cpSync(installed, target, { recursive: true })
      log(`native-modules: ${name}@${version} from node_modules`)
      continue
    }
    const scratch = mkdtempSync(join(tmpdir(), 'skill-runner-native-'))
    try {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
      const file = execFileSync(npm, ['pack', `${name}@${version}`, '--silent'], {
        cwd: scratch,
        encoding: 'utf8',
      })
        .trim()
        .split('\n')
        .pop()
      execFileSync('tar', ['-xzf', join(scratch, file), '-C', scratch])
      cpSync(join(scratch, 'package'), target, { recursive: true })
      log(`native-modules: ${name}@${version} fetched with npm pack`)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
}

/** The hook electron-builder calls before packing each platform and architecture. */
export async function beforePack(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch)
  stageNativePackages(
    context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName,
    arch,
  )
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  stageNativePackages(process.argv[2] ?? process.platform, process.argv[3] ?? process.arch)
}
