/** Shared pieces of the benchmarks: a sandbox in a child process, and figures. */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export interface ChildSandbox {
  url: string
  token: string
  stop(): Promise<void>
}

/** Starts `skill-runner sandbox` in its own process, so its memory is not counted here. */
export async function startChildSandbox(args: string[] = []): Promise<ChildSandbox> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'bin/skill-runner.js'), 'sandbox', '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  let buffer = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8')
      const match = /listening on (\S+)/.exec(buffer)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)))
  })
  return {
    url,
    token: 'sandbox-demo-token',
    async stop() {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}

/** Peak resident memory of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
