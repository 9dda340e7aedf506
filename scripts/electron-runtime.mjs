// Where the Electron runtime comes from, for `npm start`.
//
// Since Electron 45 `npm install electron` no longer downloads the binary (the package has no
// install script any more): node_modules/electron/index.js downloads it on first use, through
// node_modules/electron/install.js (also run by `npx install-electron --no`), which fetches
// the zip with @electron/get (github.com, or ELECTRON_MIRROR; cached in
// electron_config_cache or the OS cache folder) and unpacks it into node_modules/electron/dist.
// We do the same, but download first ourselves so that a failure says exactly what went
// wrong (host, reason) and a progress line shows, then let install.js unpack from the cache.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The file name of the executable inside dist/, as electron's install.js writes it. */
function platformPath(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

export function electronPackage(root) {
  const dir = join(root, 'node_modules', 'electron')
  if (!existsSync(join(dir, 'package.json'))) return null
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  return { dir, version: pkg.version }
}

/** The installed Electron executable, or null. Never downloads (unlike require('electron')). */
export function installedElectron(root, env = process.env) {
  const pkg = electronPackage(root)
  if (!pkg) return null
  const pathFile = join(pkg.dir, 'path.txt')
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : platformPath(process.platform)
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    return existsSync(binary) ? binary : null
  }
  if (!existsSync(pathFile)) return null
  const binary = join(pkg.dir, 'dist', relative)
  return existsSync(binary) ? binary : null
}

/** Why a window cannot open here at all (so downloading would not help), or null. */
export function displayProblem(env = process.env, platform = process.platform) {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return null
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null
  return 'this computer has no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set)'
}

/** One line naming why a download failed: the host and the network's answer. */
export function describeDownloadError(error, url) {
  const host = (() => {
    try {
      return new URL(url).host
    } catch {
      return url
    }
  })()
  const cause = error?.cause
  const code = cause?.code ?? error?.code
  const reasons = {
    ENOTFOUND: `${host} could not be found (no DNS, or no network)`,
    EAI_AGAIN: `${host} could not be looked up (no DNS, or no network)`,
    ECONNREFUSED: `${host} refused the connection`,
    ECONNRESET: `the connection to ${host} was cut`,
    ETIMEDOUT: `${host} did not answer in time`,
    UND_ERR_CONNECT_TIMEOUT: `${host} did not answer in time`,
    ENETUNREACH: `the network to ${host} is unreachable`,
    EHOSTUNREACH: `${host} is unreachable from this network`,
    CERT_HAS_EXPIRED: `${host}'s certificate has expired (or this computer's clock is wrong)`,
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `${host}'s certificate is not trusted here (a proxy that intercepts TLS?)`,
  }
  if (code && reasons[code]) return reasons[code]
  if (error?.name === 'HTTPError') return error.message
  const message = cause?.message ?? error?.message ?? String(error)
  return `${host}: ${message}`
}

/**
 * Downloads (or takes from the cache) Electron's zip for this computer, then runs electron's
 * own install.js to unpack it. Resolves the executable; rejects with an Error whose message is
 * one sentence saying why. `onProgress(transferred, total)` is called while downloading.
 */
export async function installElectron(root, { env = process.env, onProgress } = {}) {
  const pkg = electronPackage(root)
  if (!pkg) throw new Error('the electron package is not installed (run "npm install")')
  const requireFromElectron = createRequire(join(pkg.dir, 'package.json'))
  const get = await import(pathToFileURL(requireFromElectron.resolve('@electron/get')).href)
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform
  const arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch
  const details = {
    version: pkg.version,
    artifactName: 'electron',
    platform,
    arch,
    cacheRoot: env.electron_config_cache,
    checksums:
      env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums
        ? undefined
        : requireFromElectron('./checksums.json'),
    downloadOptions: {
      quiet: true,
      getProgressCallback: ({ transferred, total }) => onProgress?.(transferred, total),
    },
  }
  const mirror = env.ELECTRON_MIRROR || 'https://github.com/electron/electron/releases/download/'
  const url = `${mirror.replace(/\/?$/, '/')}v${pkg.version}/electron-v${pkg.version}-${platform}-${arch}.zip`
  try {
    await get.downloadArtifact(details)
  } catch (error) {
    throw new Error(
      `Electron ${pkg.version} could not be downloaded: ${describeDownloadError(error, url)}`,
      {
        cause: error,
      },
    )
  }
  // The zip is in the cache now; electron's installer verifies and unpacks it from there.
  const r = spawnSync(process.execPath, [join(pkg.dir, 'install.js')], {
    env,
    encoding: 'utf8',
  })
  const binary = installedElectron(root, env)
  if (r.status !== 0 || !binary) {
    const why = (r.stderr || r.stdout || '').trim().split('\n')[0] || `exit ${r.status}`
    throw new Error(`Electron ${pkg.version} was downloaded but could not be unpacked: ${why}`)
  }
  return binary
}
