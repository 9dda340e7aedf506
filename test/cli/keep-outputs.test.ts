// Outputs kept for good on the command line: `run --watch` saves the run's outputs to the outputs
// folder when the run ends, unless the "keep outputs" setting is off.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from '../../src/cli/commands/submit'
import { runFolderName } from '../../src/core/flows/downloads/downloads'
import { runCliOn } from '../helpers/cli'
import { testEngine } from '../helpers/engine'
import { useTestSandbox } from '../helpers/sandbox'

const sandbox = useTestSandbox()

/** A home whose outputs folder is its own, with the setting as given. */
async function homeWith(autoSaveOutputs: boolean) {
  const home = mkdtempSync(join(tmpdir(), 'sr-keep-home-'))
  const outputs = join(home, 'outputs')
  const engine = testEngine(home)
  engine.settings().update({ outputsFolder: outputs, autoSaveOutputs })
  await engine.close()
  const csv = join(home, 'rows.csv')
  writeFileSync(csv, 'message,sequence\nhello,1\nworld,2\n')
  return { home, outputs, csv }
}

/** `run --watch`; `--yes` where `run` asks before spending (it takes the flag then). */
function runWatched(home: string, csv: string) {
  const yes = run.options && 'yes' in run.options ? ['--yes'] : []
  return runCliOn({ baseUrl: sandbox.url, token: sandbox.token, home }, [
    'run',
    csv,
    '--template',
    'row-echo',
    '--watch',
    ...yes,
    '--json',
  ])
}

describe('run --watch and the outputs', () => {
  it('saves every output to the outputs folder when the run ends, and says where', async () => {
    const { home, outputs, csv } = await homeWith(true)
    const result = await runWatched(home, csv)
    expect(result.code).toBe(0)
    const summary = JSON.parse(result.stdout)
    const folder = join(outputs, runFolderName(summary.run.runId))
    expect(result.stderr).toContain(`outputs saved in ${folder}`)
    const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    )
    expect(files.length).toBe(summary.artifacts.length)
    expect(files.length).toBeGreaterThanOrEqual(2)
  })

  it('saves nothing when the setting is off', async () => {
    const { home, outputs, csv } = await homeWith(false)
    const result = await runWatched(home, csv)
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('outputs saved')
    expect(existsSync(outputs)).toBe(false)
  })
})
