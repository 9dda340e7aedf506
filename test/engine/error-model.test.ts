// The one error model: every error class a user can meet extends UserFacingError, and both front
// doors' tables (the CLI's exit codes and hints, the Bridge's error kinds) map it without calling
// it a bug. The classes are found by reading the sources, so a new class without a sample here
// fails this test.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/service'
import { refusedBy } from '../helpers/errors'
import { describeError } from '../../src/core/bridge/errors'
import { EngineError, ERROR_CATEGORIES, UserFacingError } from '../../src/core/errors'
import { DuplicateSubmissionError, PaidBeforeError } from '../../src/core/flows/spend'
import { RowsNotResendableError } from '../../src/core/flows/spend/journal-rows'
import type { Plan } from '../../src/core/flows/spend/plan'
import { SecretStoreError } from '../../src/core/secrets'
import { HistoryVersionError } from '../../src/core/storage/db'
import { WorkbookFileError } from '../../src/core/workbooks/limits'
import { XlsxUnsupported } from '../../src/core/workbooks/read/xlsx/workbook'
import { describeForTerminal, exitCodeOf, UsageError } from '../../src/cli/errors'
import { SecretStoreUnavailableError } from '../../src/main/safe-storage-secret-store'
import { ContractError } from '../../src/shared/contract'
import type { Submission } from '../../src/core/flows/spend/submissions'

const root = join(__dirname, '../../src')
/** Classes that are not errors a user meets: the Bridge's own wire form, and the base itself. */
const NOT_USER_ERRORS = new Set(['BridgeError', 'UserFacingError'])
/** The sandbox plays the service and the renderer shows BridgeErrors: neither is the engine's. */
const OUTSIDE = ['sandbox', 'renderer']

function errorClassesInSources(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (!OUTSIDE.includes(relative(root, path))) errorClassesInSources(path, found)
    } else if (/\.tsx?$/.test(name)) {
      for (const m of readFileSync(path, 'utf8').matchAll(
        /^export (?:abstract )?class (\w+) extends (\w+)/gm,
      )) {
        if (/Error|Unsupported|Failure/.test(m[2]!) || /Error$/.test(m[1]!)) found.push(m[1]!)
      }
    }
  }
  return found
}

const samples: Record<string, UserFacingError> = {
  EngineError: new EngineError('not-found', 'No environment “x”.', 'Add it first.'),
  ApiError: refusedBy(403),
  DuplicateSubmissionError: new DuplicateSubmissionError({ runId: 'run-1' } as Submission),
  PaidBeforeError: new PaidBeforeError({
    paidBefore: { sheetRows: [2], runIds: ['run-1'], words: 'This row was sent in the pilot.' },
  } as Plan),
  RowsNotResendableError: new RowsNotResendableError({
    clientRequestId: 'req-1',
    state: 'sent',
    rowCount: 3,
  }),
  SecretStoreError: new SecretStoreError('No keychain.', 'Use SKILL_RUNNER_TOKEN.'),
  HistoryVersionError: new HistoryVersionError(99),
  WorkbookFileError: new WorkbookFileError('This is not a spreadsheet.'),
  XlsxUnsupported: new XlsxUnsupported('book.xlsx'),
  UsageError: new UsageError('Unknown option --x.'),
  SecretStoreUnavailableError: new SecretStoreUnavailableError('No safe storage.'),
  ContractError: new ContractError('a run', ['run.runId is missing']),
}

describe('one error model', () => {
  it('has a sample of every exported error class, each on the one base', () => {
    const classes = errorClassesInSources(root).filter((c) => !NOT_USER_ERRORS.has(c))
    expect(classes.sort()).toEqual(Object.keys(samples).sort())
    for (const [name, error] of Object.entries(samples)) {
      expect(error, name).toBeInstanceOf(UserFacingError)
      expect(ERROR_CATEGORIES, name).toContain(error.category)
      expect(error.category, name).not.toBe('internal')
    }
  })

  it('both front doors map every sample and neither calls it a bug', () => {
    for (const [name, error] of Object.entries(samples)) {
      const terminal = describeForTerminal(error)
      expect(terminal, name).not.toMatch(/bug/i)
      expect(exitCodeOf(error), name).toBeGreaterThan(0)
      const bridge = describeError(error)
      expect(bridge.code, name).not.toBe('internal')
      expect(bridge.message, name).toBe(error.message)
      expect(bridge.message, name).not.toMatch(/went wrong inside/)
    }
  })

  it('maps every category in both tables, and only "internal" is a bug', () => {
    for (const category of ERROR_CATEGORIES) {
      const error = new EngineError(category, 'What happened.', 'What to do.')
      const bridge = describeError(error)
      const terminal = describeForTerminal(error)
      if (category === 'internal') {
        expect(bridge.code).toBe('internal')
        expect(terminal).toMatch(/bug/)
        expect(exitCodeOf(error)).toBe(4)
      } else {
        expect(bridge.code).not.toBe('internal')
        expect(terminal).not.toMatch(/bug/)
      }
    }
  })

  it('gives the same answer in both doors for a 403, a refusal and an unavailable service', () => {
    const forbidden = refusedBy(403)
    expect([exitCodeOf(forbidden), describeError(forbidden).code]).toEqual([3, 'not-allowed'])
    const refused = new EngineError('refused', 'Nothing was sent.', 'Fix the rows.')
    expect([exitCodeOf(refused), describeError(refused).code]).toEqual([1, 'refused'])
    const down = new ApiError({
      kind: 'unreachable',
      request: 'GET /x',
      origin: 'https://s.example',
    })
    const alsoDown = new EngineError('unavailable', 'The Sandbox could not start.', 'Restart.')
    expect([exitCodeOf(down), describeError(down).code]).toEqual([3, 'unreachable'])
    expect([exitCodeOf(alsoDown), describeError(alsoDown).code]).toEqual([3, 'unreachable'])
  })

  it('names no command-line flag in a message the engine makes', () => {
    const spend = new EngineError('over-limit', 'Above the cap.', 'Send fewer rows.', {
      action: 'send-fewer-rows',
    })
    expect(describeError(spend).nextStep).not.toMatch(/--/)
    expect(describeError(spend).action).toBe('send-fewer-rows')
    expect(describeForTerminal(spend)).toMatch(/--pilot N/)
  })
})
