/** The New run screen's draft: kept as the user goes, restored after a reload or a restart. */
import type { DraftWorkbookView } from '../../../shared/bridge'
import type { RestoredWorkbook } from '../../flows/prepare/draft'
import type { Engine } from '../../engine'
import type { VerbContext, Verbs } from './context'

export function draftVerbs(
  ctx: VerbContext<Pick<Engine, 'drafts'>>,
): Verbs<'saveDraft' | 'restoreDraft' | 'clearDraft'> {
  const { engine, checks } = ctx
  return {
    async saveDraft(args) {
      // A check no longer held leaves the draft's saved workbook as it is (undefined).
      const workbook = args.checkId ? (checks.checkedFile(args.checkId) ?? undefined) : null
      await engine.drafts.save(args.environment, args.draft, workbook)
      return null
    },
    async restoreDraft(args, context) {
      const found = await engine.drafts.load(args.environment)
      if (!found) return null
      return {
        environment: args.environment,
        draft: found.draft,
        // Only the desktop window may name files on this computer; a page gets the content.
        workbook: found.workbook && workbookView(found.workbook, context.transport === 'ipc'),
        savedAtMs: found.savedAtMs,
      }
    },
    async clearDraft(args) {
      await engine.drafts.clear(args.environment)
      return null
    },
  }
}

function workbookView(workbook: RestoredWorkbook, mayNamePath: boolean): DraftWorkbookView {
  if (workbook.state !== 'same') return { state: workbook.state, name: workbook.name }
  return {
    state: 'same',
    name: workbook.name,
    sizeBytes: workbook.bytes.length,
    base64: workbook.bytes.toString('base64'),
    path: mayNamePath && !workbook.isCopy ? workbook.path : null,
  }
}
