/**
 * The sandbox in a process of its own, with what the command line does not offer: any
 * SandboxOptions (how many tasks execute at once, a seed given as an object), as JSON in
 * argv[2]. Prints `listening on URL` once ready, as `skill-runner sandbox` does; stops on SIGTERM.
 */
import { startSandbox, type SandboxOptions } from '../src/sandbox'

const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions
const server = await startSandbox(options)
console.log(`listening on ${server.url}`)
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)))
